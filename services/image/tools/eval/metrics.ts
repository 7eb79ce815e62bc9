import sharp from 'sharp';
import type { EnhanceResult } from '../../src/engine/pipeline.js';
import { cutOut, placeLayers, rotateCutout } from '../../src/engine/stages/cut-out.js';
import { composeCanvas } from '../../src/engine/stages/canvas.js';
import { boundingBox, dilate, erode, threshold } from '../../src/engine/stages/mask-ops.js';
import { resolveRecipe } from '../../src/engine/recipes/index.js';
import { symmetryAxis } from '../../src/engine/stages/straighten.js';
import type { Mask } from '../../src/engine/types.js';
import { ciede2000, meanLab, srgbToLab } from './color.js';

export async function resizeMask(m: Mask, width: number, height: number): Promise<Mask> {
  const data = await sharp(Buffer.from(m.data), { raw: { width: m.width, height: m.height, channels: 1 } })
    .resize(width, height, { fit: 'fill' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return { data: new Uint8Array(data), width, height };
}

export function iou(a: Mask, b: Mask): number {
  let inter = 0,
    uni = 0;
  for (let i = 0; i < a.data.length; i++) {
    const x = a.data[i]! >= 128,
      y = b.data[i]! >= 128;
    if (x && y) inter++;
    if (x || y) uni++;
  }
  return uni ? inter / uni : 1;
}

/**
 * The share of a thin part's pixels (a strap, a chain, a cord: `part`, 255 where it is) that the
 * mask keeps, read at the part's own size so a cord a few pixels wide is not lost to a smaller
 * grid; null when the part has no pixel.
 */
export async function keptShare(mask: Mask, part: Mask): Promise<number | null> {
  const at =
    mask.width === part.width && mask.height === part.height ? mask : await resizeMask(mask, part.width, part.height);
  let all = 0,
    kept = 0;
  for (let i = 0; i < part.data.length; i++)
    if (part.data[i]! >= 128) {
      all++;
      if (at.data[i]! >= 128) kept++;
    }
  return all ? kept / all : null;
}

/** Carry a scene-space mask through the engine's own geometry into the output canvas. */
export async function maskInOutput(gt: Mask, r: EnhanceResult): Promise<Mask> {
  const g = r.geometry;
  const dummy = {
    data: Buffer.alloc(g.workingWidth * g.workingHeight * 3),
    width: g.workingWidth,
    height: g.workingHeight,
    channels: 3 as const,
  };
  const rotated = await rotateCutout(await cutOut(dummy, gt, g.cutRegion), g.rotationDeg);
  const layers = await placeLayers(rotated, g.layout);
  const canvas = await composeCanvas(layers, g.layout.canvasWidth, g.layout.canvasHeight, {
    background: 'white',
    shadow: false,
    transparent: true,
    gains: [1, 1, 1],
    sharpen: 0,
  });
  const out = new Uint8Array(canvas.width * canvas.height);
  for (let p = 0; p < out.length; p++) out[p] = canvas.data[p * 4 + 3]! >= 128 ? 255 : 0;
  return { data: out, width: canvas.width, height: canvas.height };
}

export interface OutputMetrics {
  purity: number;
  centringPct: number;
  fill: number;
  colourError: number | null;
  /** edgeFringe against the clean product, where the caller gives it. */
  fringe: number | null;
}

/** Measures on the delivered file, with the product's true mask carried into output space. */
export async function outputMetrics(
  r: EnhanceResult,
  productOut: Mask,
  target: [number, number, number],
  clean?: { data: Buffer; channels: number; mask: Uint8Array },
  truth?: MaskedImage,
): Promise<OutputMetrics> {
  const { data, info } = await sharp(r.full).raw().toBuffer({ resolveWithObject: true });
  const near = dilate(productOut, Math.max(2, Math.round(0.003 * info.width)));
  let bg = 0,
    pure = 0;
  for (let p = 0; p < near.data.length; p++) {
    if (near.data[p]! > 0) continue;
    bg++;
    const k = p * info.channels;
    if (data[k] === target[0] && data[k + 1] === target[1] && data[k + 2] === target[2]) pure++;
  }
  const box = boundingBox(productOut);
  // centred as the recipe centres: on the axis of symmetry, or (profiles, pairs) on the box
  const recipe = resolveRecipe(r.geometry.recipe);
  const axis = recipe.centreOnSymmetry || !box ? symmetryAxis(productOut).x : (box.left + box.right) / 2;
  const fill = box ? Math.max((box.right - box.left) / info.width, (box.bottom - box.top) / info.height) : 0;
  let colourError: number | null = null;
  if (clean) {
    const inner = erode(productOut, 3);
    const a = meanLab(data, info.channels, inner.data);
    const b = meanLab(clean.data, clean.channels, clean.mask); // caller passes an eroded mask
    if (a && b) colourError = ciede2000(b, a);
  }
  return {
    purity: bg ? pure / bg : 1,
    centringPct: (Math.abs(axis - info.width / 2) / info.width) * 100,
    fill,
    colourError,
    fringe: truth ? edgeFringe({ data, channels: info.channels, mask: productOut }, truth) : null,
  };
}

/** An image's pixels (channels 3 or 4) with a product mask (> 127 inside) at the same size. */
export interface MaskedImage {
  data: Uint8Array | Buffer;
  channels: number;
  mask: Mask;
}

/**
 * The outline band of a product mask (inside the mask, within `bandPx` of its edge) and its
 * interior (at least 3 x `bandPx` in). `bandPx` defaults to 1% of the mask's longer box side, at
 * least 2 px, so the band is the same share of the product in images of different sizes.
 */
export function outlineBands(m: Mask, bandPx?: number): { band: Uint8Array; interior: Uint8Array; bandPx: number } {
  const box = boundingBox(threshold(m));
  const side = box ? Math.max(box.right - box.left, box.bottom - box.top) : 0;
  const w = bandPx ?? Math.max(2, Math.round(0.01 * side));
  const inside = threshold(m);
  const inner = erode(inside, w);
  const interior = erode(inside, 3 * w).data;
  const band = new Uint8Array(inside.data.length);
  for (let p = 0; p < band.length; p++) if (inside.data[p] && !inner.data[p]) band[p] = 255;
  return { band, interior, bandPx: w };
}

function meanLabWhere(img: MaskedImage, where: Uint8Array): [number, number, number] | null {
  let L = 0,
    A = 0,
    B = 0,
    n = 0;
  for (let p = 0; p < where.length; p++) {
    if (!where[p]) continue;
    const k = p * img.channels;
    const lab = srgbToLab(img.data[k]!, img.data[k + 1]!, img.data[k + 2]!);
    L += lab[0];
    A += lab[1];
    B += lab[2];
    n++;
  }
  return n ? [L / n, A / n, B / n] : null;
}

/**
 * Colour fringe at the edge, in CIELAB a*b* units: how far the chroma of the product's outline
 * band, taken relative to its interior, is from what it is in the truth. A rim of the old
 * background (a red carpet's red along a grey garment's edge) moves the band's mean colour away
 * from the interior's; the truth's own offset (a coloured seam, a trim) is subtracted, and so is a
 * cast over the whole product (white balance, which the colour error measures), since both the
 * band and the interior carry it. Lightness is left out: on the eval's clean garments (a few
 * hundred pixels, upscaled about 8 times into the result) the band's lightness reads how soft the
 * edge is against the white canvas (+8 to +13 L* more than in the truth on the first two scenes
 * measured, with a*b* within 1.3), not the old background. `result` is the delivered image with
 * the product's true mask carried into it; `truth` the clean product with its own mask. Means over
 * the band: a rim along most of the outline shows, a few stray pixels do not.
 */
export function edgeFringe(result: MaskedImage, truth: MaskedImage): number | null {
  const offset = (img: MaskedImage) => {
    const { band, interior } = outlineBands(img.mask);
    const b = meanLabWhere(img, band);
    const i = meanLabWhere(img, interior);
    return b && i ? [b[1] - i[1], b[2] - i[2]] : null;
  };
  const r = offset(result),
    t = offset(truth);
  if (!r || !t) return null;
  return Math.hypot(r[0]! - t[0]!, r[1]! - t[1]!);
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
