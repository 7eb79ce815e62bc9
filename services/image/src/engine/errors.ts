/** Typed engine errors: the service maps `code` to an HTTP/gRPC status once. */
export type EngineErrorCode =
  | 'UNSUPPORTED_FORMAT'
  | 'TOO_MANY_PIXELS'
  | 'CORRUPT_IMAGE'
  | 'EMPTY_INPUT'
  | 'INVALID_OPTIONS'
  | 'NO_PRODUCT_FOUND'
  | 'MODEL_UNAVAILABLE'
  | 'INVALID_CONFIG'
  | 'ENGINE_CLOSED';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  constructor(code: EngineErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineError';
    this.code = code;
  }
}

export function isEngineError(value: unknown): value is EngineError {
  return value instanceof EngineError;
}
