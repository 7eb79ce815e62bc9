import { AppError } from '@flatlay/platform';
import type { RequestHandler } from 'express';

/**
 * A request body the API cannot read is refused as such. Without this a body sent as text/plain
 * reaches the handler as an empty object, and the caller is told a field is missing ("Email is
 * required") when the real mistake is the Content-Type.
 */
export const requireReadableBody: RequestHandler = (req, _res, next) => {
  // an empty body (Content-Length: 0, as fetch sends for a bare POST) needs no type
  const empty = req.headers['content-length'] === '0' && req.headers['transfer-encoding'] === undefined;
  // req.is: null when there is no body at all, false when the body is of another type
  if (!empty && req.is(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']) === false) {
    next(
      new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Send the body as JSON with Content-Type: application/json (got ${req.headers['content-type'] ?? 'no Content-Type'})`,
      ),
    );
    return;
  }
  next();
};
