import sharp from 'sharp';
import type { EnhanceResult } from '../../src/engine/pipeline.js';
import { cutOut, placeLayers, rotateCutout } from '../../src/engine/stages/cut-out.js';
import { composeCanvas } from '../../src/engine/stages/canvas.js';
import { boundingBox, dilate, erode } from '../../src/engine/stages/mask-ops.js';
import { resolveRecipe } from '../../src/engine/recipes/index.js';
import { symmetryAxis } from '../../src/engine/stages/straighten.js';
import type { Mask } from '../../src/engine/types.js';
import { ciede2000, meanLab } from './color.js';

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
}

/** Measures on the delivered file, with the product's true mask carried into output space. */
export async function outputMetrics(
  r: EnhanceResult,
  productOut: Mask,
  target: [number, number, number],
  clean?: { data: Buffer; channels: number; mask: Uint8Array },
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
  };
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
