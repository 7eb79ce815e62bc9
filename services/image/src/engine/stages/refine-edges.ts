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
  // tables over a strip of rows and, across, over the stretches of columns where such fits are
  // read (a product's edge crosses a strip in a few places; the product's inside between them
  // needs no tables). Where a stretch is cut by the frame's edge, its windows clip exactly as the
  // frame's would; elsewhere they never reach its edge.
  const near = dilate(unsure, 2 * r);
  const xFrom = Math.max(0, b.left - 2 * r),
    xTo = Math.min(w, b.right + 2 * r);
  const size = (xTo - xFrom + 1) * (STRIP_ROWS + 4 * r + 1);
  // Reused from stretch to stretch: each writes every entry of its own extent but the zero first
  // row and column.
  const t: Tables = {
    sI: new Int32Array(size),
    sp: new Int32Array(size),
    sII: new Int32Array(size),
    sIp: new Int32Array(size),
    sA: new Float64Array(size),
    sB: new Float64Array(size),
  };
  const read = new Uint8Array((w + 3) & ~3);
  for (let top = b.top; top < b.bottom; top += STRIP_ROWS) {
    const bottom = Math.min(b.bottom, top + STRIP_ROWS);
    // the columns of fits this strip's answers read: near pixels within r rows of the strip
    read.fill(0, xFrom, xTo);
    orRows(near, Math.max(0, top - r), Math.min(h, bottom + r), xFrom, xTo, read);
    // stretches: those columns grown by r (a fit's own window), joined where they touch
    for (let x = xFrom; x < xTo; ) {
      while (x < xTo && read[x] === 0) x++;
      if (x === xTo) break;
      const a = x;
      // the stretch ends where r columns of padding on both sides no longer touch the next one
      for (let gap = 0; x < xTo && gap <= 2 * r; x++) gap = read[x] === 0 ? gap + 1 : 0;
      let e = x;
      while (read[e - 1] === 0) e--;
      refineStretch(prob, luma, near, band, out, t, Math.max(0, a - r), Math.min(w, e + r), top, bottom, r, eps);
    }
  }
  return { data: out, width: w, height: h };
}

/**
 * read[x] |= m[y][x] for rows y0..y1 and columns x0..x1 (or a few more): four columns at a time
 * where the mask's rows start on whole 32-bit words.
 */
function orRows(m: Mask, y0: number, y1: number, x0: number, x1: number, read: Uint8Array): void {
  const { width: w, data } = m;
  if (w % 4 !== 0 || data.byteOffset % 4 !== 0) {
    for (let y = y0; y < y1; y++) for (let x = x0, i = y * w + x0; x < x1; x++, i++) read[x]! |= data[i]!;
    return;
  }
  const words = new Uint32Array(data.buffer, data.byteOffset, data.length >> 2),
    into = new Uint32Array(read.buffer, read.byteOffset, read.length >> 2);
  const k0 = x0 >> 2,
    k1 = (x1 + 3) >> 2,
    stride = w >> 2;
  for (let y = y0; y < y1; y++) for (let k = k0, i = y * stride + k0; k < k1; k++, i++) into[k]! |= words[i]!;
}

interface Tables {
  sI: Int32Array;
  sp: Int32Array;
  sII: Int32Array;
  sIp: Int32Array;
  sA: Float64Array;
  sB: Float64Array;
}

/** The filter's answer at the band pixels of rows top..bottom and columns x0..x1 (a stretch). */
function refineStretch(
  prob: Mask,
  luma: Uint8Array,
  near: Mask,
  band: Mask,
  out: Uint8Array,
  { sI, sp, sII, sIp, sA, sB }: Tables,
  x0: number,
  x1: number,
  top: number,
  bottom: number,
  r: number,
  eps: number,
): void {
  const { width: w, height: h } = prob;
  const rw = x1 - x0,
    W = rw + 1;
  const y0 = Math.max(0, top - 2 * r),
    rh = Math.min(h, bottom + 2 * r) - y0;
  sI.fill(0, 0, W);
  sp.fill(0, 0, W);
  sII.fill(0, 0, W);
  sIp.fill(0, 0, W);
  sA.fill(0, 0, W);
  sB.fill(0, 0, W);
  // Int32 tables wrap past 2^31, but any one window's sum fits, so its difference (| 0) is exact.
  for (let y = 0; y < rh; y++) {
    let rI = 0,
      rp = 0,
      rII = 0,
      rIp = 0;
    const src = (y + y0) * w + x0,
      up = y * W + 1,
      at = up + W;
    sI[at - 1] = sp[at - 1] = sII[at - 1] = sIp[at - 1] = 0;
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
    sA[at - 1] = sB[at - 1] = 0;
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
    for (let x = x0; x < x1; x++) {
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

/** Pixels the model was not sure of (probability between 2% and 98%). */
function unsurePixels(prob: Mask): Mask {
  const { width: w, height: h, data } = prob;
  const unsure = new Uint8Array(w * h);
  for (let i = 0; i < data.length; i++) unsure[i] = data[i]! > 5 && data[i]! < 250 ? 255 : 0;
  return { data: unsure, width: w, height: h };
}
