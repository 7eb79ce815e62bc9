import { status as GrpcStatus, Metadata, type ServiceError } from '@grpc/grpc-js';

/** Every error a service may answer with. The code is the contract; the message is for people. */
export const ErrorCodes = [
  'INVALID_ARGUMENT',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'CONFLICT',
  'INSUFFICIENT_TOKENS',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  // A well-formed request the rules refuse for what it says, not for its shape: a wrong current
  // password where one confirms a change (422). Never 401: the caller's session is fine.
  'UNPROCESSABLE',
  // A feature this deployment has not been configured for (a sign-in provider, a payment provider):
  // never UNAVAILABLE, because web clients treat 503/504 as an outage and drop the session.
  'NOT_CONFIGURED',
  'UNAVAILABLE',
  'DEADLINE_EXCEEDED',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ErrorCodes)[number];

export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    /** Machine-readable facts a caller may need (e.g. the balance after INSUFFICIENT_TOKENS). */
    public readonly details: Record<string, string | number | boolean> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

// The one mapping from error codes to gRPC status codes.
const toGrpc: Record<ErrorCode, GrpcStatus> = {
  INVALID_ARGUMENT: GrpcStatus.INVALID_ARGUMENT,
  UNAUTHENTICATED: GrpcStatus.UNAUTHENTICATED,
  PERMISSION_DENIED: GrpcStatus.PERMISSION_DENIED,
  NOT_FOUND: GrpcStatus.NOT_FOUND,
  ALREADY_EXISTS: GrpcStatus.ALREADY_EXISTS,
  CONFLICT: GrpcStatus.ABORTED,
  INSUFFICIENT_TOKENS: GrpcStatus.FAILED_PRECONDITION,
  PAYLOAD_TOO_LARGE: GrpcStatus.INVALID_ARGUMENT,
  UNSUPPORTED_MEDIA_TYPE: GrpcStatus.INVALID_ARGUMENT,
  RATE_LIMITED: GrpcStatus.RESOURCE_EXHAUSTED,
  UNPROCESSABLE: GrpcStatus.FAILED_PRECONDITION,
  NOT_CONFIGURED: GrpcStatus.UNIMPLEMENTED,
  UNAVAILABLE: GrpcStatus.UNAVAILABLE,
  DEADLINE_EXCEEDED: GrpcStatus.DEADLINE_EXCEEDED,
  INTERNAL: GrpcStatus.INTERNAL,
};

// The one mapping from error codes to HTTP status codes (used by the gateway).
const toHttp: Record<ErrorCode, number> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  CONFLICT: 409,
  INSUFFICIENT_TOKENS: 402,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  UNPROCESSABLE: 422,
  NOT_CONFIGURED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
  INTERNAL: 500,
};

export const grpcStatusOf = (code: ErrorCode): GrpcStatus => toGrpc[code];
export const httpStatusOf = (code: ErrorCode): number => toHttp[code];

const CODE_KEY = 'flatlay-error-code';
const DETAILS_KEY = 'flatlay-error-details';

/** Turns any thrown value into a gRPC ServiceError; unknown errors become INTERNAL without leaking their text. */
export function toServiceError(error: unknown): Partial<ServiceError> {
  const app = isAppError(error) ? error : new AppError('INTERNAL', 'Internal error');
  const metadata = new Metadata();
  metadata.set(CODE_KEY, app.code);
  metadata.set(DETAILS_KEY, JSON.stringify(app.details));
  return { code: toGrpc[app.code], details: app.message, metadata };
}

/** Rebuilds the AppError a remote service raised, so callers handle one error type. */
export function fromServiceError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const e = error as Partial<ServiceError>;
  const code = e.metadata?.get(CODE_KEY)[0];
  if (typeof code === 'string' && (ErrorCodes as readonly string[]).includes(code)) {
    const raw = e.metadata?.get(DETAILS_KEY)[0];
    let details: Record<string, string | number | boolean> = {};
    try {
      details = typeof raw === 'string' ? JSON.parse(raw) : {};
    } catch {
      details = {};
    }
    return new AppError(code as ErrorCode, e.details ?? 'Error', details);
  }
  if (e.code === GrpcStatus.UNAVAILABLE) return new AppError('UNAVAILABLE', 'Service unavailable');
  if (e.code === GrpcStatus.DEADLINE_EXCEEDED)
    return new AppError('DEADLINE_EXCEEDED', 'The service did not answer in time');
  return new AppError('INTERNAL', 'Internal error');
}
