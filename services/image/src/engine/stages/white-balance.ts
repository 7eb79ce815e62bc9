import type { Mask, RawImage } from '../types.js';
import { chroma } from './lab.js';
import { dilate, erode } from './mask-ops.js';

/**
 * White balance in three steps, each measured on the eval's scenes (docs/benchmarks.md, "Colour"):
 *
 * 1. The light's colour from the grey-edge hypothesis (van de Weijer et al. 2007, first order,
 *    p = 1): the average colour *difference* across edges is neutral. Edges between the product,
 *    the floor and their shadows are far less biased by one dominant surface (a wooden floor, a
 *    beige carpet) than the scene's mean colour. Pixels next to a near-white one are left out: at
 *    the top of the range one channel clips before the others (a white shirt under a warm light),
 *    and its edges would read as a cast the other way. Where the product's mask is known, the band
 *    across its outline is left out too: there an edge is the difference of two materials, and a
 *    light-blue shirt on an orange wooden floor made the blue channel's edges read as a blue light
 *    (ΔE00 23 on a held-out scene).
 * 2. A floor that looks grey once that is corrected is taken to *be* grey, like a grey card: its
 *    own mean colour then says the light's colour more exactly than edges do (a white shirt on
 *    concrete kept a 6 ΔE00 cast by edges alone). The trust fades from full at chroma 4 to none at
 *    10, so a beige carpet or a wooden floor is never made grey, and a slightly tinted grey floor
 *    can move the product's colour by no more than that small tint.
 * 3. Only 80% of the correction is applied. Estimates miss by about as much as the casts they
 *    correct, and a product left a little warm looks like the photo; one pushed the wrong way looks
 *    wrong. The three steps together took the eval's worst scene from 5.37 to 4.37 ΔE00 and its
 *    median from 2.85 to 1.85.
 *
 * Gains are clamped so a scene cannot push the product far from its own colours.
 */
export const MAX_GAIN = 1.2;
export const MIN_GAIN = 1 / 1.2;
/** Share of the estimated correction that is applied (step 3). */
export const CORRECTION = 0.8;
/** A channel at or above this is near clipping; its pixel and neighbours say nothing of the light. */
const NEAR_WHITE = 230;
/** Floor chroma (CIELAB) at or below which the floor is trusted as grey, and above which not at all. */
const GREY_FLOOR_SURE = 4;
const GREY_FLOOR_NONE = 10;
/** The floor must be at least this share of the scene sample to be judged on its own. */
const MIN_FLOOR_SHARE = 0.05;

export type Gains = [number, number, number];

/** Gains that turn an estimate of the light's colour neutral, clamped, brightness kept. */
function gainsFor(light: Gains): Gains {
  const grey = (light[0] + light[1] + light[2]) / 3;
  const gains = light.map((e) => Math.min(MAX_GAIN, Math.max(MIN_GAIN, e > 0 ? grey / e : 1))) as Gains;
  return keepBrightness(gains);
}

function keepBrightness(g: Gains): Gains {
  const mean = (g[0] + g[1] + g[2]) / 3;
  return g.map((v) => v / mean) as Gains;
}

const nearWhite = (d: Buffer, k: number) => d[k]! >= NEAR_WHITE || d[k + 1]! >= NEAR_WHITE || d[k + 2]! >= NEAR_WHITE;

/**
 * Step 1: grey-edge gains over the scene's pixels that `use` marks (every pixel without it), or
 * null when they have too few edges to judge by.
 */
export function greyEdgeGains(rgb: RawImage, use?: Uint8Array): Gains | null {
  const { width: w, height: h, data: d, channels: ch } = rgb;
  const sums: Gains = [0, 0, 0];
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      if (use && !use[y * w + x]) continue;
      const k = (y * w + x) * ch;
      if (nearWhite(d, k) || nearWhite(d, k - ch) || nearWhite(d, k + ch)) continue;
      if (nearWhite(d, k - w * ch) || nearWhite(d, k + w * ch)) continue;
      for (let c = 0; c < 3; c++) {
        const gx = d[k + ch + c]! - d[k - ch + c]!;
        const gy = d[k + w * ch + c]! - d[k - w * ch + c]!;
        sums[c]! += Math.sqrt(gx * gx + gy * gy);
      }
      n++;
    }
  }
  if (n < 16 || sums[0] + sums[1] + sums[2] < n) return null; // a flat image has no edges to judge by
  return gainsFor([sums[0] / n, sums[1] / n, sums[2] / n]);
}

/** Where each pixel of the scene sample lies: inside the product, on the floor, or across their boundary. */
export const INSIDE = 0;
export const FLOOR = 1;
export const BOUNDARY = 2;

/**
 * The product's mask carried to the scene sample: its boundary is a band `BAND` sample pixels
 * either side of the mask's edge, where an edge is the difference of two materials (a blue shirt
 * against an orange floor) and says nothing of the light.
 */
const BAND = 3;
export function sampleRegions(scene: RawImage, product: Mask): Uint8Array {
  const { width: w, height: h } = scene;
  const r = Math.max(1, Math.round((BAND * product.width) / w));
  const outer = dilate(product, r),
    inner = erode(product, r);
  const regions = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const my = Math.min(product.height - 1, Math.floor(((y + 0.5) * product.height) / h));
    for (let x = 0; x < w; x++) {
      const q = my * product.width + Math.min(product.width - 1, Math.floor(((x + 0.5) * product.width) / w));
      regions[y * w + x] = !outer.data[q] ? FLOOR : inner.data[q] ? INSIDE : BOUNDARY;
    }
  }
  return regions;
}

/** The pixels grey-edge may judge by: all but the band across the product's outline. */
export function awayFromOutline(regions: Uint8Array): Uint8Array {
  return regions.map((r) => (r === BOUNDARY ? 0 : 1));
}

/**
 * Step 2: how far the floor is trusted as grey (0..1) once `gains` are applied, and the gains that
 * make it exactly grey. Null when there is too little floor to judge by.
 */
export function greyFloor(scene: RawImage, regions: Uint8Array, gains: Gains): { trust: number; gains: Gains } | null {
  const { data: d, channels: ch } = scene;
  const sum: Gains = [0, 0, 0];
  let n = 0;
  for (let p = 0; p < regions.length; p++) {
    if (regions[p] !== FLOOR) continue;
    const k = p * ch;
    if (nearWhite(d, k)) continue;
    sum[0] += d[k]!;
    sum[1] += d[k + 1]!;
    sum[2] += d[k + 2]!;
    n++;
  }
  if (n < MIN_FLOOR_SHARE * regions.length) return null;
  const mean = sum.map((s) => s / n) as Gains;
  const c = chroma(mean[0] * gains[0], mean[1] * gains[1], mean[2] * gains[2]);
  const trust = Math.min(1, Math.max(0, (GREY_FLOOR_NONE - c) / (GREY_FLOOR_NONE - GREY_FLOOR_SURE)));
  return { trust, gains: gainsFor(mean) };
}

/** Geometric blend: a share `t` of `b`, the rest `a`. */
function blend(a: Gains, b: Gains, t: number): Gains {
  return keepBrightness(a.map((v, c) => Math.exp((1 - t) * Math.log(v) + t * Math.log(b[c]!))) as Gains);
}

/**
 * The full correction the scene asks for (steps 1 and 2): what a perfect estimate would apply.
 * `product`, where known, lets the floor be judged apart from it.
 */
export function estimateCorrection(scene: RawImage, product?: Mask | null): Gains {
  const regions = product ? sampleRegions(scene, product) : null;
  const edges = greyEdgeGains(scene, regions ? awayFromOutline(regions) : undefined);
  if (!edges) return [1, 1, 1];
  const floor = regions ? greyFloor(scene, regions, edges) : null;
  return floor && floor.trust > 0 ? blend(edges, floor.gains, floor.trust) : edges;
}

/** The gains the engine applies: the estimated correction, in part (step 3). */
export function estimateGains(scene: RawImage, product?: Mask | null): Gains {
  const full = estimateCorrection(scene, product);
  return keepBrightness(full.map((g) => g ** CORRECTION) as Gains);
}

/** Each channel's 8-bit value after its gain, as a lookup table per channel. */
export function gainTables(gains: Gains): [Uint8Array, Uint8Array, Uint8Array] {
  return gains.map((g) => {
    const t = new Uint8Array(256);
    for (let v = 0; v < 256; v++) t[v] = Math.min(255, Math.round(v * g));
    return t;
  }) as [Uint8Array, Uint8Array, Uint8Array];
}

/** Apply per-channel gains in place (8-bit RGB or RGBA; alpha untouched). */
export function applyGains(img: RawImage, gains: Gains): RawImage {
  const lut = gainTables(gains);
  const out = Buffer.from(img.data);
  for (let i = 0; i < out.length; i += img.channels) {
    out[i] = lut[0][out[i]!]!;
    out[i + 1] = lut[1][out[i + 1]!]!;
    out[i + 2] = lut[2][out[i + 2]!]!;
  }
  return { ...img, data: out };
}
