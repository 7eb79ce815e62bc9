import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { AppError, httpStatusOf, isAppError, type ErrorCode, type Logger } from '@flatlay/platform';
import { sendJsonText } from './json.js';

/**
 * A refusal by the gateway's own authentication or admin check: the only source of 401 and 403
 * on admin routes (see `statusRuleOf`).
 */
export class GatewayAuthRefusal extends AppError {
  constructor(code: Extract<ErrorCode, 'UNAUTHENTICATED' | 'PERMISSION_DENIED'>, message: string) {
    super(code, message);
    this.name = 'GatewayAuthRefusal';
  }
}

/**
 * Two rules the web clients depend on, applied here because this is the one place errors become
 * HTTP statuses:
 * 1. 503 and 504 mean "a dependency is down or did not answer": the user app then wipes its
 *    storage and signs the person out. So UNAVAILABLE and DEADLINE_EXCEEDED are raised only for a
 *    real outage (a service that does not answer, a provider that cannot be reached). A feature
 *    this deployment has not been set up for is NOT_CONFIGURED and answers 501 with a message
 *    saying so; the person stays signed in.
 * 2. On admin routes, 401 and 403 mean "admin authentication required": the admin app drops its
 *    token and reopens the login dialog. So past the admin guard, a downstream UNAUTHENTICATED or
 *    PERMISSION_DENIED (a business refusal, e.g. "administrator accounts cannot be deleted") is
 *    answered 409 with its message; only the gateway's own checks answer 401/403 there.
 */
export function statusRuleOf(error: AppError, req: Request): AppError {
  const authCode = error.code === 'UNAUTHENTICATED' || error.code === 'PERMISSION_DENIED';
  if (authCode && req.adminVerified && !(error instanceof GatewayAuthRefusal))
    return new AppError('CONFLICT', error.message, error.details);
  return error;
}

/** The one mapping of errors to /api bodies: every 4xx/5xx carries `detail` and `message`. */
export function errorBody(error: AppError) {
  return {
    detail: error.message,
    message: error.message,
    code: error.code,
    ...(Object.keys(error.details).length ? { context: error.details } : {}),
  };
}

export function errorMapper(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const app = statusRuleOf(toAppError(error), req);
    if (app.code === 'INTERNAL')
      logger.error({ err: error, requestId: req.headers['x-request-id'] }, 'unhandled error');
    if (res.headersSent) return;
    if (app.code === 'RATE_LIMITED' && typeof app.details.retryAfterSeconds === 'number')
      res.setHeader('Retry-After', String(app.details.retryAfterSeconds));
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
  if (e.status && e.status >= 400 && e.status < 500)
    return new AppError('INVALID_ARGUMENT', 'The request could not be read');
  return new AppError('INTERNAL', 'Something went wrong on our side. Please try again.');
}

/** The body errorBody makes of NOT_FOUND, written directly: no Error (and its stack) per unknown path. */
export const apiNotFound: RequestHandler = (req, res) => apiNotFoundAt(req, res, req.path);

/** The same for `path` (the path below /api, as the /api router sees it), its JSON written by hand. */
export function apiNotFoundAt(req: Request, res: Response, path: string): void {
  const message = JSON.stringify(`No API route for ${req.method} ${path}`);
  res.statusCode = 404;
  sendJsonText(res, `{"detail":${message},"message":${message},"code":"NOT_FOUND"}`);
}
