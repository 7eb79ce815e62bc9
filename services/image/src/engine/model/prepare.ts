import { engineEnv } from '../config.js';
import { defaultModelPath, modelCacheDir } from './isnet-assets.js';

/**
 * Builds the default model files ahead of time, so a process that cannot write (the container's
 * read-only file system) finds them ready: `node services/image/dist/engine/model/prepare.js`
 * with ENGINE_MODEL_CACHE naming the folder. Prints one JSON line per file.
 */
const cacheDir = modelCacheDir(engineEnv().ENGINE_MODEL_CACHE);
for (const precision of ['fp16', 'fp32'] as const) {
  process.stdout.write(`${JSON.stringify({ precision, path: defaultModelPath({ precision, cacheDir }), cacheDir })}\n`);
}
