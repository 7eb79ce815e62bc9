import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from '@flatlay/platform/config';
import { z } from 'zod';
import { EngineError } from './errors.js';
import {
  INFERENCE_SIZE_STEP,
  isInferenceSize,
  MAX_INFERENCE_SIZE,
  MIN_INFERENCE_SIZE,
} from './model/inference-size.js';

/**
 * The engine's environment, read and checked once when an engine is created (createEngine), so a typo in a deployment
 * (ENGINE_CUDA=true, a MODEL_PATH that does not exist) stops the worker with a message naming
 * the variable instead of being silently ignored.
 */
const schema = z.object({
  MODEL_PATH: z
    .string()
    .refine((p) => existsSync(p), { message: 'no file at that path' })
    .optional(),
  ENGINE_CUDA: z
    .enum(['0', '1'], { message: 'use 0 (CPU only) or 1 (ask for CUDA); leave unset for CUDA when the runtime has it' })
    .optional(),
  ENGINE_MODEL_CACHE: z.string().min(1).optional(),
  ENGINE_INFERENCE_SIZE: z
    .string()
    .transform(Number)
    .refine(isInferenceSize, {
      message: `use a multiple of ${INFERENCE_SIZE_STEP} from ${MIN_INFERENCE_SIZE} to ${MAX_INFERENCE_SIZE}`,
    })
    .optional(),
  ENGINE_CROP_FIRST: z.enum(['0', '1'], { message: 'use 1 (crop first) or 0 (segment the whole frame)' }).optional(),
});

export type EngineEnv = z.infer<typeof schema>;

export function engineEnv(env: NodeJS.ProcessEnv = process.env): EngineEnv {
  try {
    return loadConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError) throw new EngineError('INVALID_CONFIG', err.message, { cause: err });
    throw err;
  }
}
