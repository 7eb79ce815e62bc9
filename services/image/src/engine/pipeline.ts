import sharp from 'sharp';
import { EngineError } from './errors.js';
import type { SegmentationModel } from './model/session.js';
import { type EnhanceOptions, resolveOptions } from './options.js';
import { resolvePreset, type CheckResult } from './presets/index.js';
import { resolveRecipe } from './recipes/index.js';
import type { Recipe } from './recipes/recipe.js';
import {
  alphaMask,
  cutOut,
  measure,
  placeLayers,
  productRegion,
  rotateCutout,
  turnsCutout,
  type Layer,
} from './stages/cut-out.js';
import { decodeImage } from './stages/decode.js';
import { deliver } from './stages/deliver.js';
import { composeCanvas, finishLayer } from './stages/canvas.js';
import { planCrop, planCutout, type Layout } from './stages/layout.js';
import { type CleanupOptions, cleanMask, keepProductComponents } from './stages/mask-cleanup.js';
import { boundingBox, scaleBox, threshold } from './stages/mask-ops.js';
import { segmentCropFirst } from './stages/crop-first.js';
import { segmentWithSecondLook } from './stages/second-look.js';
import { frameCheck } from './stages/frame-contact.js';
import { applyEdgeForeground, edgeForeground } from './stages/foreground.js';
import { levelDecision } from './stages/straighten.js';
import { estimateGains } from './stages/white-balance.js';
import type { Box, Mask, OutputFormat, RawImage } from './types.js';

export interface EnhanceResult {
  full: Buffer;
  thumbnail: Buffer;
  preview: Buffer;
  width: number;
  height: number;
  format: OutputFormat;
  checks: CheckResult[];
  /** Milliseconds per stage. */
  timings: Record<string, number>;
  /** What the engine decided, for evaluation and debugging. */
  geometry: {
    recipe: string;
    workingWidth: number;
    workingHeight: number;
    /** Region of the working image cut out before straightening (the whole image for close-ups). */
    cutRegion: Box;
    /** The window the full segmentation pass ran on when crop-first found one (working-image coordinates). */
    segmentWindow: Box | null;
    /** The model was unsure of its product at the inference size and looked again larger (stages/second-look.ts). */
    secondLook: boolean;
    rotationDeg: number;
    gains: [number, number, number];
    layout: Layout;
    /** Cleaned product mask in working-image coordinates (mask resolution). */
    mask: Mask | null;
  };
}

export interface PipelineContext {
  model: SegmentationModel;
  maxPixels: number;
  /** Find the product's box in a cheap first pass and segment that box (stages/crop-first.ts). */
  cropFirst?: boolean;
}

const DEFAULT_SIZE = 2048;

/**
 * The long side the photo is decoded to for a result of `size` px: a quarter more than the result,
 * so the product keeps detail after cropping, at most 5120. Exported for the tools that replay the
 * pipeline's stages (tools/eval/mask-stages.ts), so they work on what the pipeline works on.
 */
export const workingLongSide = (size = DEFAULT_SIZE) => Math.min(5120, Math.ceil(size * 1.25));

/**
 * How a cut-out recipe's mask is cleaned (stages/mask-cleanup.ts); also for tools/eval/mask-stages.ts.
 * `photo`: the photo at the mask's size (segment()'s), for the hand rule; absent where crop-first
 * put the mask together from a window.
 */
export const cleanupOptions = (recipe: Recipe, photo?: Uint8Array): CleanupOptions => ({
  removeHanger: recipe.removeHanger,
  trimUnsure: recipe.type === 'clothing',
  photo,
});

/** The check that says whether the product's rotation was confirmed (stages/level-confidence.ts). */
export const LEVEL_RULE = 'level confirmed';

async function sceneSample(img: RawImage): Promise<RawImage> {
  const { data, info } = await sharp(img.data, {
    raw: { width: img.width, height: img.height, channels: img.channels },
  })
    .resize(256, 256, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 };
}

export async function runPipeline(
  input: Buffer,
  options: EnhanceOptions,
  ctx: PipelineContext,
): Promise<EnhanceResult> {
  const timings: Record<string, number> = {};
  let last = performance.now();
  const mark = (stage: string) => {
    const now = performance.now();
    timings[stage] = Math.round((now - last) * 10) / 10;
    last = now;
  };
  const o = resolveOptions(options);
  const recipe = resolveRecipe(o.type, o.subType);
  const preset = resolvePreset(o.preset);
  const size = o.size ?? preset?.size ?? DEFAULT_SIZE;
  const aspect = preset?.aspect ?? recipe.aspect;
  const margin = preset?.margin ?? recipe.margin;

  const decoded = await decodeImage(input, {
    maxPixels: ctx.maxPixels,
    workingLongSide: workingLongSide(size),
  });
  const img = decoded.image;
  mark('decode');
  let inferenceMs = 0;
  const timed = (model: SegmentationModel): SegmentationModel => ({
    inputSize: model.inputSize,
    encoding: model.encoding,
    run: async (x) => {
      const t = performance.now();
      try {
        return await model.run(x);
      } finally {
        inferenceMs += performance.now() - t;
      }
    },
    atSize: (s) => {
      const other = model.atSize?.(s);
      return other && timed(other);
    },
    close: () => model.close(),
  });
  const timedModel = timed(ctx.model);
  let segmentWindow: Box | null = null;
  let prob: Mask;
  let small: Uint8Array | undefined;
  let secondLook = false;
  if (ctx.cropFirst) ({ mask: prob, window: segmentWindow } = await segmentCropFirst(img, timedModel));
  else {
    const segmentation = await segmentWithSecondLook(img, timedModel);
    prob = segmentation;
    small = segmentation.photo;
    secondLook = segmentation.secondLook;
  }
  mark('segment');
  // report the model's own time apart from the segment stage's pre- and post-processing
  timings.inference = Math.round(inferenceMs * 10) / 10;
  timings.segment = Math.round((timings.segment! - inferenceMs) * 10) / 10;

  // the white balance's small copy of the scene: libvips makes it on its own thread while the
  // mask stages below keep this one busy (not during inference, which uses every core)
  const scene = sceneSample(img);
  scene.catch(() => {}); // awaited below; a failure must not surface as an unhandled rejection first

  let layers: Layer[];
  let layout: Layout;
  // the white balance's gains, worked out early where libvips' work leaves this thread idle
  let earlyGains: [number, number, number] | undefined;
  let rotationDeg = 0;
  let mask: Mask | null = null;
  let cutRegion: Box = { left: 0, top: 0, right: img.width, bottom: img.height };
  // where the engine is unsure of its own answer it says so (cut-outs only; close-ups are not turned)
  const unsure: CheckResult[] = [];
  if (recipe.mode === 'crop') {
    const kept = keepProductComponents(threshold(prob, 128));
    mask = kept?.mask ?? null;
    const b = mask ? boundingBox(mask) : null;
    const sx = img.width / prob.width,
      sy = img.height / prob.height;
    const subject = b && scaleBox(b, sx, sy, img.width, img.height);
    mark('mask');
    layout = planCrop(subject, img.width, img.height, recipe, size, aspect);
    layers = await placeLayers(img, layout);
    mark('compose');
  } else {
    const clean = cleanMask(prob, cleanupOptions(recipe, small));
    if (!clean) throw new EngineError('NO_PRODUCT_FOUND', 'no product could be told apart from the background');
    mask = clean.binary;
    mark('mask');
    cutRegion = productRegion(clean.alpha, img.width, img.height) ?? cutRegion;
    // libvips cuts the product out on its own thread while the level is worked out here
    const cut = cutOut(img, clean.alpha, cutRegion);
    cut.catch(() => {}); // awaited below; a failure must not surface as an unhandled rejection first
    const frame = frameCheck(clean.binary);
    const level = levelDecision(clean.binary, recipe.level, !frame.pass);
    rotationDeg = level.deg;
    unsure.push(frame);
    if (recipe.level !== 'none') unsure.push({ rule: LEVEL_RULE, pass: level.sure, detail: level.detail });
    // the white balance while libvips is still cutting out (it needs the scene and the mask only)
    earlyGains = estimateGains(await scene, mask);
    // the floor's colour out of the product's soft edge before it is turned and placed on the
    // canvas (blur-fusion, stages/foreground.ts): a garment on a red carpet keeps no red rim
    const cutout = await cut;
    // the colours change, the alpha does not: a cut-out that is not turned has its alpha's mask
    // made by libvips on its own thread while the colours are worked out here, from the cut-out
    // as cut (the new colours are written only once libvips has read it)
    const early = turnsCutout(rotationDeg) ? null : alphaMask(cutout);
    early?.catch(() => {}); // awaited below; a failure must not surface as an unhandled rejection first
    const edge = edgeForeground(cutout);
    const earlyMask = early && (await early);
    applyEdgeForeground(cutout, edge);
    const rotated = await rotateCutout(cutout, rotationDeg);
    const m = measure(earlyMask ?? (await alphaMask(rotated)), rotated.width, rotated.height, recipe);
    if (!m) throw new EngineError('NO_PRODUCT_FOUND', 'the product vanished after straightening');
    mark('straighten');
    layout = planCutout(m, recipe, size, aspect, margin);
    layers = await placeLayers(rotated, layout);
    mark('compose');
  }

  const gains = earlyGains ?? estimateGains(await scene, mask);
  const finished = layers.map((l) => finishLayer(l, gains, recipe.sharpen));
  const canvas = await composeCanvas(finished, layout.canvasWidth, layout.canvasHeight, {
    background: o.background,
    shadow: o.shadow,
    transparent: o.transparent && recipe.mode === 'cutout',
    gains,
    sharpen: recipe.sharpen,
  });
  mark('finish');
  const transparent = o.transparent && recipe.mode === 'cutout';
  const delivery = await deliver(canvas, o.format, transparent);
  mark('deliver');

  let checks: CheckResult[] = unsure;
  if (preset) {
    const { data, info } = await sharp(delivery.full).raw().toBuffer({ resolveWithObject: true });
    checks = [
      ...unsure,
      ...preset.check({
        width: canvas.width,
        height: canvas.height,
        format: o.format,
        transparent,
        background: o.background,
        productBox: layout.productBox,
        pixels: { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 },
      }),
    ];
    mark('checks');
  }
  return {
    ...delivery,
    width: canvas.width,
    height: canvas.height,
    format: transparent ? 'png' : o.format,
    checks,
    timings,
    geometry: {
      recipe: `${recipe.type}/${recipe.subType}`,
      workingWidth: img.width,
      workingHeight: img.height,
      cutRegion,
      segmentWindow,
      secondLook,
      rotationDeg,
      gains,
      layout,
      mask,
    },
  };
}
