import type { Mask } from '../types.js';
import { boundingBox, dilate } from './mask-ops.js';

/**
 * Edge refinement of an upsampled probability mask against the photo itself (a guided filter,
 * He, Sun and Tang 2010, on luminance). When the model runs below the mask's resolution (768 px
 * inference for a 1024 px mask), bilinear upsampling leaves its edges soft and a little off the
 * product's real outline; the filter fits the mask locally as a linear function of the photo's
 * luminance, so the edge snaps to where the photo's own edge is.
 *
 * Only a band around the coarse edge is replaced: inside and outside the product the model's own
 * answer stands (a guided filter would otherwise let strong texture in a print or on a carpet
 * nudge sure pixels). Pure: a mask and a luminance plane of the same size in, a mask out.
 */
export interface RefineOptions {
  /** Box radius in mask pixels (about twice the upsampling factor). */
  radius: number;
  /** Regularisation on luminance in 0..1 squared: larger keeps more of the coarse mask. */
  eps?: number;
}

/** Rows of the mask refined at a time: each strip's tables stay small (cache-sized, no large allocations). */
export const STRIP_ROWS = 32;

export function refineEdges(prob: Mask, luma: Uint8Array, { radius: r, eps = 1e-3 }: RefineOptions): Mask {
  const { width: w, height: h } = prob;
  if (luma.length !== w * h) throw new Error(`luminance plane is ${luma.length} pixels, the mask ${w * h}`);
  const out = new Uint8Array(prob.data);
  const unsure = unsurePixels(prob);
  const band = dilate(unsure, r);
  const b = boundingBox(band);
  if (!b) return { data: out, width: w, height: h };
  // The answer at a band pixel averages the line fits (a, b) up to r away, and each fit reads the
  // photo up to r further: fits are made only within 2r of an unsure pixel, from summed-area
  // tables over a strip of the band's box grown by 2r. Where that region is cut by the frame's
  // edge, its windows clip exactly as the frame's would; elsewhere they never reach its edge.
  const near = dilate(unsure, 2 * r);
  const x0 = Math.max(0, b.left - 2 * r),
    rw = Math.min(w, b.right + 2 * r) - x0,
    W = rw + 1;
  const size = W * (STRIP_ROWS + 4 * r + 1);
  // Int32 tables wrap past 2^31, but any one window's sum fits, so its difference (| 0) is exact.
  // Reused from strip to strip: each strip writes every entry but the zero first row and column.
  const sI = new Int32Array(size),
    sp = new Int32Array(size),
    sII = new Int32Array(size),
    sIp = new Int32Array(size),
    sA = new Float64Array(size),
    sB = new Float64Array(size);
  for (let top = b.top; top < b.bottom; top += STRIP_ROWS) {
    const bottom = Math.min(b.bottom, top + STRIP_ROWS);
    const y0 = Math.max(0, top - 2 * r),
      rh = Math.min(h, bottom + 2 * r) - y0;
    for (let y = 0; y < rh; y++) {
      let rI = 0,
        rp = 0,
        rII = 0,
        rIp = 0;
      const src = (y + y0) * w + x0,
        up = y * W + 1,
        at = up + W;
      for (let x = 0; x < rw; x++) {
        const a = luma[src + x]!,
          c = prob.data[src + x]!;
        rI += a;
        rp += c;
        rII += a * a;
        rIp += a * c;
        sI[at + x] = sI[up + x]! + rI;
        sp[at + x] = sp[up + x]! + rp;
        sII[at + x] = sII[up + x]! + rII;
        sIp[at + x] = sIp[up + x]! + rIp;
      }
    }
    // the line fits, straight into their own summed-area tables (raster order is the tables' order)
    for (let y = 0; y < rh; y++) {
      const north = Math.max(0, y - r) * W,
        south = Math.min(rh, y + r + 1) * W,
        rows = Math.min(rh, y + r + 1) - Math.max(0, y - r),
        up = y * W + 1,
        at = up + W,
        src = (y + y0) * w + x0;
      let rowA = 0,
        rowB = 0;
      for (let x = 0; x < rw; x++) {
        if (near.data[src + x]) {
          const left = Math.max(0, x - r),
            right = Math.min(rw, x + r + 1);
          const nw = north + left,
            ne = north + right,
            sw = south + left,
            se = south + right;
          const count = rows * (right - left);
          const mI = ((sI[se]! - sI[ne]! - sI[sw]! + sI[nw]!) | 0) / (255 * count),
            mp = ((sp[se]! - sp[ne]! - sp[sw]! + sp[nw]!) | 0) / (255 * count),
            mII = ((sII[se]! - sII[ne]! - sII[sw]! + sII[nw]!) | 0) / (65025 * count),
            mIp = ((sIp[se]! - sIp[ne]! - sIp[sw]! + sIp[nw]!) | 0) / (65025 * count);
          const a = (mIp - mI * mp) / (mII - mI * mI + eps);
          rowA += a;
          rowB += mp - a * mI;
        }
        sA[at + x] = sA[up + x]! + rowA;
        sB[at + x] = sB[up + x]! + rowB;
      }
    }
    for (let y = top; y < bottom; y++) {
      const ry = y - y0,
        north = Math.max(0, ry - r) * W,
        south = Math.min(rh, ry + r + 1) * W,
        rows = Math.min(rh, ry + r + 1) - Math.max(0, ry - r);
      for (let x = b.left; x < b.right; x++) {
        const i = y * w + x;
        if (!band.data[i]) continue;
        const rx = x - x0,
          left = Math.max(0, rx - r),
          right = Math.min(rw, rx + r + 1);
        const count = rows * (right - left);
        const mA = (sA[south + right]! - sA[north + right]! - sA[south + left]! + sA[north + left]!) / count,
          mB = (sB[south + right]! - sB[north + right]! - sB[south + left]! + sB[north + left]!) / count;
        const q = mA * (luma[i]! / 255) + mB;
        out[i] = q <= 0 ? 0 : q >= 1 ? 255 : Math.round(q * 255);
      }
    }
  }
  return { data: out, width: w, height: h };
}

/** Pixels the model was not sure of (probability between 2% and 98%). */
function unsurePixels(prob: Mask): Mask {
  const { width: w, height: h, data } = prob;
  const unsure = new Uint8Array(w * h);
  for (let i = 0; i < data.length; i++) unsure[i] = data[i]! > 5 && data[i]! < 250 ? 255 : 0;
  return { data: unsure, width: w, height: h };
}
