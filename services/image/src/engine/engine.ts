import sharp from 'sharp';
import { engineEnv } from './config.js';
import { EngineError } from './errors.js';
import { modelCacheDir } from './model/isnet-assets.js';
import {
  loadSegmentationModel,
  type GraphOptimization,
  type ModelRuntime,
  type ModelSettings,
  type SegmentationModel,
} from './model/session.js';
import { threadsForEngines } from './model/threads.js';
import type { EnhanceOptions } from './options.js';
import { runPipeline, type EnhanceResult } from './pipeline.js';

export const DEFAULT_MAX_PIXELS = 40_000_000;

export interface EngineConfig {
  /** ONNX segmentation model file; defaults to MODEL_PATH, then the bundled ISNet model. */
  modelPath?: string;
  /** A ready model (tests inject a fake); wins over modelPath. */
  model?: SegmentationModel;
  /** Largest accepted input in pixels (default 40 MP). */
  maxPixels?: number;
  /** ONNX Runtime graph optimisation: 'all' (default, fastest) or 'extended' (about 200 MB leaner, about 10% slower). */
  optimization?: GraphOptimization;
  /** Side the model runs at: ENGINE_INFERENCE_SIZE, else DEFAULT_INFERENCE_SIZE (576; multiples of 32, 256 to 1024). */
  inferenceSize?: number;
  /** Crop first (stages/crop-first.ts): ENGINE_CROP_FIRST=1, else off. */
  cropFirst?: boolean;
  /** Engines this process hosts on the same CPUs: ONNX Runtime's threads are divided among them (model/threads.ts). */
  engines?: number;
}

export interface Engine {
  enhance(input: Buffer, options?: EnhanceOptions): Promise<EnhanceResult>;
  close(): Promise<void>;
  /** The execution provider in use, the inference size and threads, and warnings (CUDA asked for, CPU used), for the host's log. */
  readonly runtime?: ModelRuntime;
}

/** Load the model once; enhance any number of images with it. */
export async function createEngine(config: EngineConfig = {}): Promise<Engine> {
  sharp.cache({ memory: 32, files: 0, items: 16 }); // keep libvips' operation cache small
  // libvips' threads per image, as many as ONNX Runtime's: sharp's default on glibc is one (against
  // memory fragmentation, which the worker's malloc settings already bound: process-env.ts), and
  // the stages that wait on libvips (decode, resizes, cut-out, encode) then run on one core of two
  sharp.concurrency(threadsForEngines(config.engines).threads);
  const model = config.model ?? (await loadSegmentationModel(modelSettings(config)));
  const maxPixels = config.maxPixels ?? DEFAULT_MAX_PIXELS;
  const cropFirst = config.cropFirst ?? engineEnv().ENGINE_CROP_FIRST === '1';
  let closed = false;
  return {
    runtime: model.runtime,
    async enhance(input, options = {}) {
      if (closed) throw new EngineError('ENGINE_CLOSED', 'the engine was closed');
      return runPipeline(input, options, { model, maxPixels, cropFirst });
    },
    async close() {
      closed = true;
      if (!config.model) await model.close();
    },
  };
}

/**
 * The model's settings: the caller's, else the environment's (MODEL_PATH, ENGINE_CUDA,
 * ENGINE_MODEL_CACHE, ENGINE_INFERENCE_SIZE), read and checked once here and handed down, so nothing below reads the
 * environment.
 */
function modelSettings(config: EngineConfig): ModelSettings {
  const env = engineEnv();
  return {
    modelPath: config.modelPath ?? env.MODEL_PATH,
    cuda: env.ENGINE_CUDA,
    cacheDir: modelCacheDir(env.ENGINE_MODEL_CACHE),
    optimization: config.optimization,
    inputSize: config.inferenceSize ?? env.ENGINE_INFERENCE_SIZE,
    engines: config.engines,
  };
}
