import { EngineError } from './errors.js';
import sharp from 'sharp';
import { loadSegmentationModel, type GraphOptimization, type SegmentationModel } from './model/session.js';
import type { EnhanceOptions } from './options.js';
import { runPipeline, type EnhanceResult } from './pipeline.js';

export { EngineError, isEngineError, type EngineErrorCode } from './errors.js';
export type { EnhanceOptions } from './options.js';
export type { EnhanceResult } from './pipeline.js';
export type { SegmentationModel } from './model/session.js';
export { PRESET_IDS, type CheckResult } from './presets/index.js';
export { createThreadedEngine, type ThreadedEngine, type ThreadedEngineConfig } from './thread.js';
export { SUB_TYPES } from './recipes/index.js';

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
}

export interface Engine {
  enhance(input: Buffer, options?: EnhanceOptions): Promise<EnhanceResult>;
  close(): Promise<void>;
}

/** Load the model once; enhance any number of images with it. */
export async function createEngine(config: EngineConfig = {}): Promise<Engine> {
  sharp.cache({ memory: 32, files: 0, items: 16 }); // keep libvips' operation cache small
  const model = config.model ?? (await loadSegmentationModel(config.modelPath, config.optimization));
  const maxPixels = config.maxPixels ?? DEFAULT_MAX_PIXELS;
  let closed = false;
  return {
    async enhance(input, options = {}) {
      if (closed) throw new EngineError('ENGINE_CLOSED', 'the engine was closed');
      return runPipeline(input, options, { model, maxPixels });
    },
    async close() {
      closed = true;
      if (!config.model) await model.close();
    },
  };
}
