import type { Mask } from '../types.js';

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

export function refineEdges(prob: Mask, luma: Uint8Array, { radius, eps = 1e-3 }: RefineOptions): Mask {
  const { width: w, height: h } = prob;
  if (luma.length !== w * h) throw new Error(`luminance plane is ${luma.length} pixels, the mask ${w * h}`);
  const n = w * h;
  const band = edgeBand(prob, radius);
  const I = new Float32Array(n),
    p = new Float32Array(n),
    II = new Float32Array(n),
    Ip = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const a = luma[i]! / 255,
      b = prob.data[i]! / 255;
    I[i] = a;
    p[i] = b;
    II[i] = a * a;
    Ip[i] = a * b;
  }
  const mI = boxMean(I, w, h, radius),
    mp = boxMean(p, w, h, radius),
    mII = boxMean(II, w, h, radius),
    mIp = boxMean(Ip, w, h, radius);
  const A = new Float32Array(n),
    B = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const variance = mII[i]! - mI[i]! * mI[i]!;
    const cov = mIp[i]! - mI[i]! * mp[i]!;
    const a = cov / (variance + eps);
    A[i] = a;
    B[i] = mp[i]! - a * mI[i]!;
  }
  const mA = boxMean(A, w, h, radius),
    mB = boxMean(B, w, h, radius);
  const out = new Uint8Array(prob.data);
  for (let i = 0; i < n; i++) {
    if (!band[i]) continue;
    const q = mA[i]! * I[i]! + mB[i]!;
    out[i] = q <= 0 ? 0 : q >= 1 ? 255 : Math.round(q * 255);
  }
  return { data: out, width: w, height: h };
}

/** Pixels within `r` of a pixel the model was not sure of (probability between 2% and 98%). */
function edgeBand(prob: Mask, r: number): Uint8Array {
  const { width: w, height: h, data } = prob;
  const unsure = new Float32Array(w * h);
  for (let i = 0; i < data.length; i++) unsure[i] = data[i]! > 5 && data[i]! < 250 ? 1 : 0;
  const near = boxMean(unsure, w, h, r);
  const band = new Uint8Array(w * h);
  for (let i = 0; i < band.length; i++) band[i] = near[i]! > 0 ? 1 : 0;
  return band;
}

/** Mean over the (2r+1)^2 box around each pixel, clipped at the borders, from a summed-area table. */
export function boxMean(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const W = w + 1;
  const sat = new Float64Array(W * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += src[y * w + x]!;
      sat[(y + 1) * W + x + 1] = sat[y * W + x + 1]! + row;
    }
  }
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - r),
      y1 = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - r),
        x1 = Math.min(w, x + r + 1);
      const s = sat[y1 * W + x1]! - sat[y0 * W + x1]! - sat[y1 * W + x0]! + sat[y0 * W + x0]!;
      out[y * w + x] = s / ((y1 - y0) * (x1 - x0));
    }
  }
  return out;
}
