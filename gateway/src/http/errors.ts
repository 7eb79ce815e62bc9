import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, httpStatusOf, isAppError, type Logger } from '@flatlay/platform';

/** The one mapping of errors to /api bodies: every 4xx/5xx carries `detail` and `message`. */
export function errorBody(error: AppError) {
  return { detail: error.message, message: error.message, code: error.code, ...(Object.keys(error.details).length ? { context: error.details } : {}) };
}

export function errorMapper(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const app = toAppError(error);
    if (app.code === 'INTERNAL') logger.error({ err: error, requestId: req.headers['x-request-id'] }, 'unhandled error');
    if (res.headersSent) return;
    if (app.code === 'RATE_LIMITED' && typeof app.details.retryAfterSeconds === 'number') res.setHeader('Retry-After', String(app.details.retryAfterSeconds));
    if (app.code === 'UNAUTHENTICATED') res.setHeader('WWW-Authenticate', 'Bearer');
    res.status(httpStatusOf(app.code)).json(errorBody(app));
  };
}

/** Express and body-parser raise their own errors; each becomes the AppError a client can act on. */
function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const e = error as { type?: string; status?: number };
  if (e.type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large');
  if (e.type === 'entity.parse.failed') return new AppError('INVALID_ARGUMENT', 'The request body is not valid JSON');
  if (e.status && e.status >= 400 && e.status < 500) return new AppError('INVALID_ARGUMENT', 'The request could not be read');
  return new AppError('INTERNAL', 'Something went wrong on our side. Please try again.');
}

export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json(errorBody(new AppError('NOT_FOUND', `No API route for ${req.method} ${req.path}`)));
};
