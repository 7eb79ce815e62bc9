import type { EngineConfig } from './engine.js';
import type { ModelRuntime } from './model/session.js';
import { EngineError, type EngineErrorCode } from './errors.js';
import type { EnhanceOptions } from './options.js';
import type { EnhanceResult } from './pipeline.js';

/** What the engine thread is started with: the engine's settings, less a ready model (which cannot cross threads). */
export type ThreadedEngineConfig = Omit<EngineConfig, 'model'>;

/** Messages between the caller and the engine thread. */
export type ToEngineThread =
  | { type: 'enhance'; id: number; input: Uint8Array; options: EnhanceOptions }
  | { type: 'close' };
export type FromEngineThread =
  | { type: 'ready'; runtime?: ModelRuntime }
  | { type: 'failed'; error: SerializedError }
  | { type: 'result'; id: number; result: EnhanceResult }
  | { type: 'error'; id: number; error: SerializedError };
export interface SerializedError {
  message: string;
  code?: EngineErrorCode;
}

export function serializeError(err: unknown): SerializedError {
  const code = err instanceof EngineError ? err.code : undefined;
  return { message: (err as Error)?.message ?? String(err), ...(code ? { code } : {}) };
}

export function reviveError(e: SerializedError): Error {
  return e.code ? new EngineError(e.code, e.message) : new Error(e.message);
}
