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
import { threadsForEngines } from './threads.js';

/** What the model runs on, for the logs: the provider actually in use, its threads, and why it is not the one asked for. */
export interface ModelRuntime {
  executionProvider: 'cuda' | 'cpu';
  /** Side of the square input. */
  inferenceSize: number;
  /** ONNX Runtime intra-op threads (threads.ts). */
  intraOpThreads: number;
  file: string;
  /** Said once per engine, e.g. CUDA asked for but not available. */
  warnings: string[];
}

/** The model runtime behind a small interface, so stages can be tested with a fake. */
export interface SegmentationModel {
  /** Side of the square input the model runs at (the engine's inference size, or a fixed model's own). */
  readonly inputSize: number;
  /** Where and how it runs (absent on fakes). */
  readonly runtime?: ModelRuntime;
  /** input: NCHW float32 [1,3,S,S]; returns S*S probabilities in [0,1]. */
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
  /** Set when the model file fixes its input size (an operator's model exported at one size). */
  fixedSize?: number;
  executionProvider: 'cuda' | 'cpu';
  file: string;
  warnings: string[];
}

const sessions = new Map<string, Promise<LoadedSession>>();

class OnnxSegmentationModel implements SegmentationModel {
  readonly runtime: ModelRuntime;
  constructor(
    private readonly loaded: LoadedSession,
    readonly inputSize: number,
    private readonly intraOpThreads: number,
    private readonly warnings: string[],
  ) {
    this.runtime = {
      executionProvider: loaded.executionProvider,
      inferenceSize: inputSize,
      intraOpThreads,
      file: loaded.file,
      warnings: [...loaded.warnings, ...warnings],
    };
  }

  async run(input: Float32Array): Promise<Float32Array> {
    const s = this.inputSize;
    const { session, inputName, outputName } = this.loaded;
    const tensor = new ort.Tensor('float32', input, [1, 3, s, s]);
    // fetch only the final mask: ISNet also exposes side outputs and feature maps (~100 MB)
    const out = await session.run({ [inputName]: tensor }, [outputName]);
    const result = out[outputName];
    if (!result) throw new EngineError('MODEL_UNAVAILABLE', 'model produced no output');
    const data = result.data as Float32Array;
    tensor.dispose?.();
    return data;
  }

  atSize(size: number): SegmentationModel | undefined {
    if (this.loaded.fixedSize !== undefined) return undefined;
    return new OnnxSegmentationModel(this.loaded, size, this.intraOpThreads, this.warnings);
  }

  async close(): Promise<void> {
    /* shared per process: released at exit */
  }
}

export type GraphOptimization = 'basic' | 'extended' | 'all';

/** How to load the model; the engine fills these from its configuration (nothing here reads the environment). */
export interface ModelSettings {
  /** An operator's ONNX file; unset: the default ISNet model, built into cacheDir on first use. */
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
}

/** The providers to try, and a warning when CUDA was asked for and this onnxruntime-node build has none. */
export function chooseProviders(
  cuda: ModelSettings['cuda'],
  backends: readonly { name: string; bundled: boolean }[],
): { providers: ('cuda' | 'cpu')[]; warning?: string } {
  if (cuda === '0') return { providers: ['cpu'] };
  const backend = backends.find((b) => b.name === 'cuda');
  if (backend && (backend.bundled || cuda === '1')) return { providers: ['cuda', 'cpu'] };
  if (cuda === '1')
    return {
      providers: ['cpu'],
      warning: 'ENGINE_CUDA=1 but this onnxruntime-node build has no CUDA execution provider: running on CPU',
    };
  return { providers: ['cpu'] };
}

/**
 * One session per model file (and thread count) per process, created on first use and reused (at
 * any inference size: the default model's prepared files have a free input size, free-input-size.ts).
 * Memory: ONNX Runtime's CPU arena is on and keeps the inference's tensors between runs (about
 * 15% faster: no page faults on fresh memory); memory patterns are off (they plan one block per
 * run and pushed the peak to 1.7 GB). Graph optimisation is 'all' (NCHWc layouts), about 10%
 * faster than 'extended' on the float32 CPU copy. With the worker's malloc settings
 * (process-env.ts) the whole pipeline peaks near 0.9-1.0 GB at 24 MP (docs/benchmarks.md).
 * The provider in use is reported in `runtime`; asking for CUDA where it is missing or fails to
 * start falls back to CPU with a warning there, which the engine's host logs.
 */
export function loadSegmentationModel({
  modelPath,
  cuda,
  cacheDir,
  optimization = 'all',
  inputSize = DEFAULT_INFERENCE_SIZE,
  engines = 1,
  intraOpThreads,
}: ModelSettings = {}): Promise<SegmentationModel> {
  if (!isInferenceSize(inputSize))
    return Promise.reject(
      new EngineError(
        'INVALID_CONFIG',
        `inference size must be a multiple of ${INFERENCE_SIZE_STEP} from ${MIN_INFERENCE_SIZE} to ${MAX_INFERENCE_SIZE}, not ${inputSize}`,
      ),
    );
  const threads = intraOpThreads ?? threadsForEngines(engines).threads;
  const { providers: wanted, warning } = chooseProviders(cuda, ort.listSupportedBackends?.() ?? []);
  // An operator's model is used as given; the default one comes in float16 for CUDA and
  // widened to float32 for the CPU provider, which runs float16 weights through casts.
  const fileFor = (executionProviders: string[]) =>
    modelPath ?? defaultModelPath({ precision: executionProviders[0] === 'cuda' ? 'fp16' : 'fp32', cacheDir });
  const file = fileFor(wanted);
  const key = `${file}#${optimization}#${threads}`;
  let pending = sessions.get(key);
  if (!pending) {
    pending = (async () => {
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
        const session = await ort.InferenceSession.create(file, options(wanted)).catch((err: unknown) => {
          if (wanted[0] === 'cpu') throw err;
          // no usable CUDA (no device, missing libraries): stay on CPU, and say so
          warnings.push(`CUDA execution provider failed to start (${(err as Error).message}): running on CPU`);
          executionProvider = 'cpu';
          loadedFile = fileFor(['cpu']);
          return ort.InferenceSession.create(loadedFile, options(['cpu']));
        });
        const output = session.outputNames.includes('output') ? 'output' : (session.outputNames[0] ?? 'output');
        const loaded: LoadedSession = {
          session,
          inputName: session.inputNames[0] ?? 'input',
          outputName: output,
          executionProvider,
          file: loadedFile,
          warnings,
        };
        const meta = session.inputMetadata?.[0];
        const side = meta?.isTensor ? meta.shape[2] : undefined;
        if (typeof side === 'number' && side > 0) loaded.fixedSize = side;
        return loaded;
      } catch (cause) {
        sessions.delete(key);
        throw new EngineError(
          'MODEL_UNAVAILABLE',
          `cannot load segmentation model ${file}: ${(cause as Error).message}`,
          { cause },
        );
      }
    })();
    sessions.set(key, pending);
  }
  return pending.then((l) => {
    const extra = warning ? [warning] : [];
    if (l.fixedSize && l.fixedSize !== inputSize)
      extra.push(`the model's input is fixed at ${l.fixedSize} px: running at that size, not ${inputSize}`);
    return new OnnxSegmentationModel(l, l.fixedSize ?? inputSize, threads, extra);
  });
}
