import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { EngineError } from '../errors.js';
import {
  DEFAULT_INFERENCE_SIZE,
  INFERENCE_SIZE_STEP,
  isInferenceSize,
  MAX_INFERENCE_SIZE,
  MIN_INFERENCE_SIZE,
} from './inference-size.js';
import { defaultModelPath } from './isnet-assets.js';
import {
  type InputEncoding,
  inputEncoding,
  ISNET_MANIFEST,
  type ModelManifest,
  readManifest,
  toProbabilities,
} from './manifest.js';
import { threadsForEngines } from './threads.js';

/** What the model runs on, for the logs: the provider actually in use, its threads, and why it is not the one asked for. */
export interface ModelRuntime {
  executionProvider: 'cuda' | 'cpu';
  /** Side of the square input. */
  inferenceSize: number;
  /** ONNX Runtime intra-op threads (threads.ts). */
  intraOpThreads: number;
  file: string;
  /** The model's name and licence, from its manifest (model/manifest.ts). */
  model: { name: string; licence: string };
  /** Said once per engine, e.g. CUDA asked for but not available. */
  warnings: string[];
}

/** The model runtime behind a small interface, so stages can be tested with a fake. */
export interface SegmentationModel {
  /** Side of the square input the model runs at (the engine's inference size, or a fixed model's own). */
  readonly inputSize: number;
  /** Where and how it runs (absent on fakes). */
  readonly runtime?: ModelRuntime;
  /** How 8-bit RGB becomes the model's input, from its manifest; absent: ISNet's (fakes follow it). */
  readonly encoding?: InputEncoding;
  /** input: NCHW float32 [1,3,S,S] (encoded as `encoding` says); returns S*S probabilities in [0,1]. */
  run(input: Float32Array): Promise<Float32Array>;
  /**
   * The same model run at another side (same session and threads), for a cheap first pass;
   * undefined (or absent) where the model's input size is fixed.
   */
  atSize?(size: number): SegmentationModel | undefined;
  close(): Promise<void>;
}

interface LoadedSession {
  session: ort.InferenceSession;
  inputName: string;
  outputName: string;
  /** Set when the model's manifest fixes its input size (an operator's model exported at one size). */
  fixedSize?: number;
  manifest: ModelManifest;
  encoding: InputEncoding;
  executionProvider: 'cuda' | 'cpu';
  file: string;
  warnings: string[];
}

const sessions = new Map<string, Promise<LoadedSession>>();

class OnnxSegmentationModel implements SegmentationModel {
  readonly runtime: ModelRuntime;
  readonly encoding: InputEncoding;
  constructor(
    private readonly loaded: LoadedSession,
    readonly inputSize: number,
    private readonly intraOpThreads: number,
    private readonly warnings: string[],
    /** Set on CUDA: the model at another size, in that size's own session (sessionKey). */
    private readonly atOtherSize?: (size: number) => Promise<SegmentationModel>,
  ) {
    this.runtime = {
      executionProvider: loaded.executionProvider,
      inferenceSize: inputSize,
      intraOpThreads,
      file: loaded.file,
      model: { name: loaded.manifest.name, licence: loaded.manifest.licence },
      warnings: [...loaded.warnings, ...warnings],
    };
    this.encoding = loaded.encoding;
  }

  async run(input: Float32Array): Promise<Float32Array> {
    const s = this.inputSize;
    const { session, inputName, outputName } = this.loaded;
    const tensor = new ort.Tensor('float32', input, [1, 3, s, s]);
    // fetch only the final mask: ISNet also exposes side outputs and feature maps (~100 MB)
    const out = await session.run({ [inputName]: tensor }, [outputName]);
    const result = out[outputName];
    if (!result) throw new EngineError('MODEL_UNAVAILABLE', 'model produced no output');
    tensor.dispose?.();
    if (result.type !== 'float32' || result.data.length !== s * s)
      throw new EngineError(
        'MODEL_UNAVAILABLE',
        `model output ${outputName} is ${result.type} [${result.dims.join(', ')}]: expected ${s * s} float32 values (one per input pixel at ${s}x${s})`,
      );
    return toProbabilities(result.data as Float32Array, this.loaded.manifest.output);
  }

  atSize(size: number): SegmentationModel | undefined {
    if (this.loaded.fixedSize !== undefined) return undefined;
    if (size === this.inputSize) return this;
    if (this.atOtherSize) return new ModelAtSize(size, this.encoding, this.atOtherSize);
    return new OnnxSegmentationModel(this.loaded, size, this.intraOpThreads, this.warnings);
  }

  async close(): Promise<void> {
    /* shared per process: released at exit */
  }
}

export type GraphOptimization = 'basic' | 'extended' | 'all';

/** How to load the model; the engine fills these from its configuration (nothing here reads the environment). */
export interface ModelSettings {
  /**
   * An operator's ONNX file, with its manifest beside it (`<model>.json`, model/manifest.ts);
   * unset: the default ISNet model, built into cacheDir on first use.
   */
  modelPath?: string;
  /** '0': CPU only; '1': ask for CUDA; unset: CUDA when this onnxruntime-node build carries it. */
  cuda?: '0' | '1';
  /** Folder of the assembled default model and its float32 CPU copy (default: .cache/models in the repository). */
  cacheDir?: string;
  optimization?: GraphOptimization;
  /**
   * Side of the square the model runs at (DEFAULT_INFERENCE_SIZE; a multiple of 32 from 256 to
   * 1024). The default model's prepared files take any such size; an operator's model whose input
   * is fixed runs at its own size.
   */
  inputSize?: number;
  /**
   * Engines sharing this process's CPUs (each with its own session and thread pool): the intra-op
   * threads are the CPUs available (cgroup quota, os.availableParallelism) divided by it. Default 1.
   */
  engines?: number;
  /** Intra-op threads as given, instead of the calculation above. */
  intraOpThreads?: number;
  /**
   * Whether CUDA's provider library is installed beside onnxruntime-node (default:
   * cudaProviderInstalled()). Tests answer yes on a host without it, to run the fall-back when the
   * provider fails to start.
   */
  cudaProviderInstalled?: () => boolean;
}

/**
 * The providers to try, and a warning when CUDA was asked for and cannot be had. onnxruntime-node's
 * Linux build lists CUDA as not bundled: its provider library is installed apart (NuGet at `npm
 * install`, which the project skips, or scripts/cuda-libs.sh, or the image's ENGINE_CUDA_LIBS=1).
 * `installed`: that library is beside the core (cudaProviderInstalled). Only then is CUDA tried,
 * asked for or not: trying a missing library makes ONNX Runtime print its own error besides ours.
 */
export function chooseProviders(
  cuda: ModelSettings['cuda'],
  backends: readonly { name: string; bundled: boolean }[],
  installed = false,
): { providers: ('cuda' | 'cpu')[]; warning?: string } {
  if (cuda === '0') return { providers: ['cpu'] };
  const backend = backends.find((b) => b.name === 'cuda');
  if (backend && (backend.bundled || installed)) return { providers: ['cuda', 'cpu'] };
  if (cuda !== '1') return { providers: ['cpu'] };
  return {
    providers: ['cpu'],
    warning: backend
      ? "ENGINE_CUDA=1 but the CUDA execution provider's library is not installed beside onnxruntime-node (scripts/cuda-libs.sh): running on CPU"
      : 'ENGINE_CUDA=1 but this onnxruntime-node build has no CUDA execution provider: running on CPU',
  };
}

/**
 * Whether libonnxruntime_providers_cuda.so lies beside onnxruntime-node's core library (Linux x64,
 * where it loads it from); `packageDir`: onnxruntime-node's folder (default: the one this resolves).
 */
export function cudaProviderInstalled(packageDir?: string): boolean {
  if (process.platform !== 'linux' || process.arch !== 'x64') return false;
  try {
    const pkg =
      packageDir ?? path.resolve(path.dirname(createRequire(import.meta.url).resolve('onnxruntime-node')), '..');
    return readdirSync(path.join(pkg, 'bin')).some((napi) =>
      existsSync(path.join(pkg, 'bin', napi, 'linux', 'x64', 'libonnxruntime_providers_cuda.so')),
    );
  } catch {
    return false;
  }
}

/**
 * One session per model file (and thread count) per process, created on first use and reused (on
 * the CPU at any inference size: the default model's prepared files have a free input size,
 * free-input-size.ts; on CUDA one per size, sessionKey).
 * Memory: ONNX Runtime's CPU arena is on and keeps the inference's tensors between runs (about
 * 15% faster: no page faults on fresh memory); memory patterns are off (they plan one block per
 * run and pushed the peak to 1.7 GB). Graph optimisation is 'all' (NCHWc layouts), about 10%
 * faster than 'extended' on the float32 CPU copy. With the worker's malloc settings
 * (process-env.ts) the whole pipeline peaks near 0.9-1.0 GB at 24 MP (docs/benchmarks.md).
 * The provider in use is reported in `runtime`; asking for CUDA where it is missing or fails to
 * start falls back to CPU with a warning there, which the engine's host logs.
 */
export async function loadSegmentationModel({
  modelPath,
  cuda,
  cacheDir,
  optimization = 'all',
  inputSize = DEFAULT_INFERENCE_SIZE,
  engines = 1,
  intraOpThreads,
  cudaProviderInstalled: providerInstalled = cudaProviderInstalled,
}: ModelSettings = {}): Promise<SegmentationModel> {
  if (!isInferenceSize(inputSize))
    throw new EngineError(
      'INVALID_CONFIG',
      `inference size must be a multiple of ${INFERENCE_SIZE_STEP} from ${MIN_INFERENCE_SIZE} to ${MAX_INFERENCE_SIZE}, not ${inputSize}`,
    );
  if (modelPath !== undefined && !existsSync(modelPath))
    throw new EngineError('MODEL_UNAVAILABLE', `cannot load segmentation model ${modelPath}: no file at that path`);
  // an operator's model is described by the manifest beside it, checked before anything is loaded
  const manifest = modelPath === undefined ? ISNET_MANIFEST : readManifest(modelPath);
  const threads = intraOpThreads ?? threadsForEngines(engines).threads;
  const { providers: wanted, warning } = chooseProviders(
    cuda,
    ort.listSupportedBackends?.() ?? [],
    cuda !== '0' && providerInstalled(),
  );
  // An operator's model is used as given; the default one comes in float16 for CUDA and
  // widened to float32 for the CPU provider, which runs float16 weights through casts.
  const fileFor = (executionProviders: string[]) =>
    modelPath ?? defaultModelPath({ precision: executionProviders[0] === 'cuda' ? 'fp16' : 'fp32', cacheDir });
  const file = fileFor(wanted);
  const key = sessionKey({ file, optimization, threads, provider: wanted[0]!, inputSize });
  let pending = sessions.get(key);
  if (!pending) {
    pending = (async () => {
      let session: ort.InferenceSession | undefined;
      try {
        const options = (executionProviders: string[]): ort.InferenceSession.SessionOptions => ({
          executionProviders,
          intraOpNumThreads: threads,
          graphOptimizationLevel: optimization,
          enableCpuMemArena: true,
          enableMemPattern: false,
        });
        const warnings: string[] = [];
        let executionProvider = wanted[0]!;
        let loadedFile = file;
        session = await ort.InferenceSession.create(file, options(wanted)).catch((err: unknown) => {
          if (wanted[0] === 'cpu') throw err;
          // no usable CUDA (no device, missing libraries): stay on CPU, and say so
          warnings.push(`CUDA execution provider failed to start (${(err as Error).message}): running on CPU`);
          executionProvider = 'cpu';
          loadedFile = fileFor(['cpu']);
          return ort.InferenceSession.create(loadedFile, options(['cpu']));
        });
        return { ...checkAgainstManifest(session, manifest), session, executionProvider, file: loadedFile, warnings };
      } catch (cause) {
        sessions.delete(key);
        await session?.release();
        if (cause instanceof EngineError) throw cause;
        throw new EngineError(
          'MODEL_UNAVAILABLE',
          `cannot load segmentation model ${file}: ${(cause as Error).message}`,
          { cause },
        );
      }
    })();
    sessions.set(key, pending);
  }
  const l = await pending;
  const extra = warning ? [warning] : [];
  if (l.fixedSize && l.fixedSize !== inputSize)
    extra.push(`the model's input is fixed at ${l.fixedSize} px: running at that size, not ${inputSize}`);
  const atOtherSize =
    l.executionProvider === 'cuda'
      ? (size: number) =>
          loadSegmentationModel({
            modelPath,
            cuda,
            cacheDir,
            optimization,
            inputSize: size,
            engines,
            intraOpThreads,
            cudaProviderInstalled: providerInstalled,
          })
      : undefined;
  return new OnnxSegmentationModel(l, l.fixedSize ?? inputSize, threads, extra, atOtherSize);
}

/**
 * Which sessions are one. On the CPU one session serves every input size. On CUDA each size gets
 * its own: ONNX Runtime's CUDA convolutions keep their cuDNN set-up for the last input shape, and
 * going back and forth between two sizes in one session cost about 2 s per switch on an H100
 * (docs/benchmarks.md, issue 33: 10 ms at 576 and 15 ms at 1024 in their own sessions), which
 * crop-first's small first pass would pay twice per photo. The GPU's memory holds a copy per size
 * easily (the float16 model is 88 MB). Pure.
 */
export function sessionKey(s: {
  file: string;
  optimization: GraphOptimization;
  threads: number;
  provider: 'cuda' | 'cpu';
  inputSize: number;
}): string {
  const base = `${s.file}#${s.optimization}#${s.threads}`;
  return s.provider === 'cuda' ? `${base}#cuda@${s.inputSize}` : base;
}

/**
 * A model at another size whose session is made on its first run (CUDA: one session per size,
 * sessionKey); `load` gives the model at that size.
 */
class ModelAtSize implements SegmentationModel {
  private loaded?: Promise<SegmentationModel>;
  constructor(
    readonly inputSize: number,
    readonly encoding: InputEncoding,
    private readonly load: (size: number) => Promise<SegmentationModel>,
  ) {}

  async run(input: Float32Array): Promise<Float32Array> {
    this.loaded ??= this.load(this.inputSize);
    return (await this.loaded).run(input);
  }

  atSize(size: number): SegmentationModel {
    return new ModelAtSize(size, this.encoding, this.load);
  }

  async close(): Promise<void> {
    /* the sessions are shared per process: released at exit */
  }
}

/**
 * The session's input and output as the manifest describes them, or an error saying where they
 * disagree (a manifest written for another model must not give silently wrong masks).
 */
function checkAgainstManifest(
  session: ort.InferenceSession,
  manifest: ModelManifest,
): Pick<LoadedSession, 'inputName' | 'outputName' | 'fixedSize' | 'manifest' | 'encoding'> {
  const refuse = (why: string) => new EngineError('INVALID_CONFIG', `model "${manifest.name}": ${why}`);
  const inputs = session.inputNames;
  if (inputs.length !== 1) throw refuse(`expected one image input, found ${inputs.length} (${inputs.join(', ')})`);
  const outputs = session.outputNames;
  const outputName =
    manifest.outputName ??
    (manifest.outputIndex !== undefined
      ? outputs.at(manifest.outputIndex)
      : outputs.includes('output')
        ? 'output'
        : outputs[0]);
  if (!outputName || !outputs.includes(outputName))
    throw refuse(
      manifest.outputIndex !== undefined && manifest.outputName === undefined
        ? `no output at index ${manifest.outputIndex}: the model has ${outputs.length} (${outputs.join(', ')})`
        : `no output ${outputName ?? ''} (outputs: ${outputs.join(', ')}); set outputName or outputIndex in the manifest`,
    );
  const meta = session.inputMetadata?.[0];
  const shape = meta?.isTensor ? meta.shape : undefined;
  if (shape && shape.length !== 4) throw refuse(`the input is [${shape.join(', ')}], not [1, 3, height, width]`);
  if (shape && typeof shape[1] === 'number' && shape[1] !== 3)
    throw refuse(`the input has ${shape[1]} channels, not 3`);
  const fixed = shape?.slice(2).filter((d): d is number => typeof d === 'number' && d > 0) ?? [];
  if (manifest.inputSize === 'free') {
    if (fixed.length > 0)
      throw refuse(`the manifest says inputSize "free" but the model's input is fixed at ${fixed.join('x')}`);
  } else if (fixed.some((d) => d !== manifest.inputSize)) {
    throw refuse(`the manifest says inputSize ${manifest.inputSize} but the model's input is ${fixed.join('x')}`);
  }
  return {
    inputName: inputs[0]!,
    outputName,
    ...(manifest.inputSize === 'free' ? {} : { fixedSize: manifest.inputSize }),
    manifest,
    encoding: inputEncoding(manifest),
  };
}
