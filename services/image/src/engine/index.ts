export { createEngine, DEFAULT_MAX_PIXELS, type Engine, type EngineConfig } from './engine.js';
export { EngineError, isEngineError, type EngineErrorCode } from './errors.js';
export type { EnhanceOptions } from './options.js';
export type { EnhanceResult } from './pipeline.js';
export type { SegmentationModel } from './model/session.js';
export { PRESET_IDS, type CheckResult } from './presets/index.js';
export { createThreadedEngine, type ThreadedEngine, type ThreadedEngineConfig } from './thread.js';
export { SUB_TYPES } from './recipes/index.js';
