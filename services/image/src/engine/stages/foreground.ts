/**
 * Foreground colour estimation where the mask is unsure (0 < alpha < 1): blur-fusion, from Forte
 * and Pitié, "Approximate Fast Foreground Colour Estimation" (ICIP 2021). A pixel at the product's
 * edge is a mix of the product and the floor, I = alpha F + (1 - alpha) B; cut out as it is, a
 * garment on a red carpet keeps a red rim on a white canvas. The estimate takes F and B as the
 * alpha-weighted local means of the product and of the floor, then corrects F by the pixel's own
 * residual: F = F_mean + alpha (I - alpha F_mean - (1 - alpha) B_mean). Two passes, as in the
 * paper: a wide one from the image alone, then a narrow one from the first pass's F and B.
 *
 * `estimateForeground` is the paper's algorithm as written (dense box blurs over the whole image),
 * the reference; `decontaminateEdges` is what the pipeline does to the cut-out: the same two passes
 * evaluated only at the unsure pixels, a thin band along the outline. The pipeline (pipeline.ts)
 * calls its two halves, `edgeForeground` and `applyEdgeForeground`, apart, so that libvips can read
 * the cut-out between them. On the bench's
 * 12 MP photo (a 1710 x 1222 cut-out, 62,000 unsure pixels) that is about 40 ms on one core of the
 * shared development machine, where the dense passes would be two dozen full-size box blurs.
 */

export interface ForegroundOptions {
  /**
   * Box radii of the two passes, in pixels: the paper's boxes are 90 and 6 pixels wide (OpenCV's
   * blur takes the box's size), so radii 45 and 3.
   */
  radii?: [number, number];
}

/**
 * The foreground colours of packed RGB `rgb` (3 channels, 0..255) under `alpha` (0..255, same
 * size), as a new RGB buffer: pixels with alpha 0 or 255 are returned as they are, the others
 * with the floor's colour taken out.
 */
export function estimateForeground(
  rgb: Uint8Array,
  alpha: Uint8Array,
  width: number,
  height: number,
  { radii = [45, 3] }: ForegroundOptions = {},
): Uint8Array {
  const n = width * height;
  const a = new Float32Array(n);
  for (let p = 0; p < n; p++) a[p] = alpha[p]! / 255;
  const image = [0, 1, 2].map((c) => {
    const plane = new Float32Array(n);
    for (let p = 0; p < n; p++) plane[p] = rgb[p * 3 + c]! / 255;
    return plane;
  });
  const first = fusion(image, image, image, a, width, height, radii[0]);
  const second = fusion(image, first.f, first.b, a, width, height, radii[1]);
  const out = new Uint8Array(n * 3);
  for (let p = 0; p < n; p++)
    for (let c = 0; c < 3; c++) {
      const keep = a[p] === 0 || a[p] === 1;
      out[p * 3 + c] = keep ? rgb[p * 3 + c]! : Math.round(255 * Math.min(1, Math.max(0, second.f[c]![p]!)));
    }
  return out;
}

/** One pass of blur-fusion: F and the blurred B, per channel. */
function fusion(
  image: Float32Array[],
  f: Float32Array[],
  b: Float32Array[],
  a: Float32Array,
  width: number,
  height: number,
  r: number,
): { f: Float32Array[]; b: Float32Array[] } {
  const n = width * height;
  const blurredA = boxBlur(a, width, height, r);
  const outF: Float32Array[] = [];
  const outB: Float32Array[] = [];
  for (let c = 0; c < 3; c++) {
    const fa = new Float32Array(n);
    const b1a = new Float32Array(n);
    for (let p = 0; p < n; p++) {
      fa[p] = f[c]![p]! * a[p]!;
      b1a[p] = b[c]![p]! * (1 - a[p]!);
    }
    const bf = boxBlur(fa, width, height, r);
    const bb = boxBlur(b1a, width, height, r);
    const fc = new Float32Array(n);
    const bc = new Float32Array(n);
    for (let p = 0; p < n; p++) {
      const meanF = bf[p]! / (blurredA[p]! + 1e-5);
      const meanB = bb[p]! / (1 - blurredA[p]! + 1e-5);
      const x = a[p]!;
      fc[p] = Math.min(1, Math.max(0, meanF + x * (image[c]![p]! - x * meanF - (1 - x) * meanB)));
      bc[p] = meanB;
    }
    outF.push(fc);
    outB.push(bc);
  }
  return { f: outF, b: outB };
}

/** Mean over the (2r+1)^2 box around each pixel, the box clipped at the image's edges. */
export function boxBlur(src: Float32Array, width: number, height: number, r: number): Float32Array {
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  // rows, then columns: running sums over the clipped window
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let x = 0; x <= Math.min(r, width - 1); x++) sum += src[row + x]!;
    for (let x = 0; x < width; x++) {
      const lo = Math.max(0, x - r),
        hi = Math.min(width - 1, x + r);
      tmp[row + x] = sum / (hi - lo + 1);
      if (x + r + 1 < width) sum += src[row + x + r + 1]!;
      if (x - r >= 0) sum -= src[row + x - r]!;
    }
  }
  for (let x = 0; x < width; x++) {
    let sum = 0;
    for (let y = 0; y <= Math.min(r, height - 1); y++) sum += tmp[y * width + x]!;
    for (let y = 0; y < height; y++) {
      const lo = Math.max(0, y - r),
        hi = Math.min(height - 1, y + r);
      out[y * width + x] = sum / (hi - lo + 1);
      if (y + r + 1 < height) sum += tmp[(y + r + 1) * width + x]!;
      if (y - r >= 0) sum -= tmp[(y - r) * width + x]!;
    }
  }
  return out;
}

/** Fixed-length tuples, so the destructured per-channel arrays are typed without a cast each. */
type Six<T> = [T, T, T, T, T, T];
type Eight<T> = [T, T, T, T, T, T, T, T];

/** alpha/255, as a table (the band's loops read it for every neighbour). */
const UNIT = Float32Array.from({ length: 256 }, (_, i) => i / 255);
const EPS = 1e-5;
const clip01 = (v: number) => Math.min(1, Math.max(0, v));

/**
 * Blur-fusion on an RGBA cut-out, in place: the colour of every pixel with 0 < alpha < 255 is
 * replaced by its estimated foreground; the others are not touched. Returns how many pixels
 * changed. The two passes of `estimateForeground`, evaluated only where they are needed:
 *
 * - the wide pass's means (F under alpha, B under 1 - alpha, box radius r1) change slowly, so they
 *   are taken from block sums (blocks of about r1 / 3, every second pixel of each second row
 *   sampled) and interpolated between block centres, over the unsure pixels' box grown by r1 only;
 * - the narrow pass (radius r2, a few pixels) is summed directly around each unsure pixel, from the
 *   wide pass's F at its neighbours (the photo's own colour where alpha is 1, as the formula gives
 *   there) and the wide pass's B taken at the pixel itself (a mean over about 2 r1 pixels does not
 *   change across r2).
 */
export function decontaminateEdges(img: RgbaImage, options: ForegroundOptions = {}): number {
  const edge = edgeForeground(img, options);
  applyEdgeForeground(img, edge);
  return edge.count;
}

export interface RgbaImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** The unsure pixels' new colours, computed but not yet written (`applyEdgeForeground`). */
export interface EdgeForeground {
  /** Pixel indices (y * width + x) of the unsure pixels, in raster order. */
  at: Int32Array;
  count: number;
  /** Their foreground colours, packed RGB. */
  rgb: Uint8Array;
}

/**
 * `decontaminateEdges`'s colours without writing them: the cut-out is only read, so libvips may
 * read it on its own thread meanwhile (pipeline.ts makes the alpha's mask then).
 *
 * Each pass is a function of its own, with no closure made per call: the engine calls this once
 * per photo on a million pixels or more, and one large function with a closure made per call was
 * deoptimised and recompiled within the call (a new closure is a new call target each time), 1.4
 * to 4x slower on the bench's cut-out than these passes.
 */
export function edgeForeground(img: RgbaImage, { radii = [45, 3] }: ForegroundOptions = {}): EdgeForeground {
  const { data, width: w, height: h, channels: ch } = img;
  if (ch !== 4) throw new Error(`foreground estimation needs RGBA, not ${ch} channels`);
  const [r1, r2] = radii;
  const band = unsureBand(data, w, h);
  if (band.count === 0) return { at: band.at, count: 0, rgb: new Uint8Array(0) };
  const grid = wideMeans(data, w, h, band, r1);
  const wide = wideAtBand(data, w, band, grid);
  const rgb = narrowAtBand(data, w, h, band, wide, r2);
  return { at: band.at, count: band.count, rgb };
}

/** Write `edgeForeground`'s colours into the cut-out. */
export function applyEdgeForeground(img: RgbaImage, { at, count, rgb }: EdgeForeground): void {
  const data = img.data;
  for (let j = 0; j < count; j++) {
    const k = at[j]! * 4;
    data[k] = rgb[j * 3]!;
    data[k + 1] = rgb[j * 3 + 1]!;
    data[k + 2] = rgb[j * 3 + 2]!;
  }
}

/** The unsure pixels (in raster order) and their box. */
interface Band {
  at: Int32Array;
  count: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function unsureBand(data: Uint8Array, w: number, h: number): Band {
  const band: Band = {
    at: new Int32Array(Math.max(64, (w * h) >> 6)),
    count: 0,
    left: w,
    right: -1,
    top: h,
    bottom: -1,
  };
  // alpha read a whole pixel at a time where the buffer allows (little-endian RGBA: alpha is the
  // top byte); a row at a time, in a function of its own that is optimised as a whole (a loop
  // over the whole cut-out in one call was compiled mid-loop and thrown away at its end, each call)
  const words = data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, w * h) : null;
  for (let y = 0; y < h; y++) {
    const before = band.count;
    const left = words ? unsureInRow(words, y * w, w, band) : unsureInRowBytes(data, y * w, w, band);
    if (band.count === before) continue;
    if (left < band.left) band.left = left;
    const right = band.at[band.count - 1]! - y * w;
    if (right > band.right) band.right = right;
    if (y < band.top) band.top = y;
    band.bottom = y;
  }
  return band;
}

/** Appends row `row`'s unsure pixels to the band; returns the first one's column (w if none). */
function unsureInRow(words: Uint32Array, row: number, w: number, band: Band): number {
  let first = w;
  for (let x = 0; x < w; x++) {
    const a = words[row + x]! >>> 24;
    if (a === 0 || a === 255) continue;
    if (first === w) first = x;
    pushUnsure(band, row + x);
  }
  return first;
}

function unsureInRowBytes(data: Uint8Array, row: number, w: number, band: Band): number {
  let first = w;
  for (let x = 0; x < w; x++) {
    const a = data[(row + x) * 4 + 3]!;
    if (a === 0 || a === 255) continue;
    if (first === w) first = x;
    pushUnsure(band, row + x);
  }
  return first;
}

function pushUnsure(band: Band, p: number): void {
  if (band.count === band.at.length) {
    const grown = new Int32Array(band.at.length * 2);
    grown.set(band.at);
    band.at = grown;
  }
  band.at[band.count++] = p;
}

/** The wide pass's block grid: its origin and size in blocks, and the means per block centre. */
interface WideGrid {
  s: number;
  bx0: number;
  by0: number;
  gw: number;
  gh: number;
  /** F0 F1 F2 B0 B1 B2, 0..1, per block. */
  means: Six<Float32Array>;
}

function wideMeans(data: Uint8Array, w: number, h: number, band: Band, r1: number): WideGrid {
  const { left, right, top, bottom } = band;
  // block sums over the box grown by r1 (plus a block, for the interpolation)
  const s = Math.max(1, Math.round(r1 / 3));
  const R = Math.max(1, Math.round(r1 / s));
  const bx0 = Math.max(0, Math.floor((left - r1) / s) - 1),
    by0 = Math.max(0, Math.floor((top - r1) / s) - 1),
    bx1 = Math.min(Math.ceil(w / s), Math.floor((right + r1) / s) + 2),
    by1 = Math.min(Math.ceil(h / s), Math.floor((bottom + r1) / s) + 2);
  const gw = bx1 - bx0,
    gh = by1 - by0,
    cells = gw * gh;
  // per block: sample count, sum of alpha, sums of I alpha and I (1 - alpha) per channel
  const sums = [0, 1, 2, 3, 4, 5, 6, 7].map(() => new Float64Array(cells)) as Eight<Float64Array>;
  const step = Math.max(1, Math.floor(s / 5)); // 25 samples or more in each block
  blockSums(data, w, sums, s, step, bx0, by0, gw, by0 * s, Math.min(h, by1 * s), bx0 * s, Math.min(w, bx1 * s));
  // window sums over (2R + 1)^2 blocks, from summed-area tables of the block sums
  const tables = sums.map((sum) => summedArea(sum, gw, gh)) as Eight<Float64Array>;
  const means = [0, 1, 2, 3, 4, 5].map(() => new Float32Array(cells)) as Six<Float32Array>;
  windowMeans(tables, means, gw, gh, R);
  return { s, bx0, by0, gw, gh, means };
}

function blockSums(
  data: Uint8Array,
  w: number,
  [sN, sA, sF0, sF1, sF2, sB0, sB1, sB2]: Eight<Float64Array>,
  s: number,
  step: number,
  bx0: number,
  by0: number,
  gw: number,
  ys: number,
  ye: number,
  xs: number,
  xe: number,
): void {
  for (let y = ys; y < ye; y += step) {
    const brow = (((y / s) | 0) - by0) * gw;
    for (let x = xs; x < xe; x += step) {
      const k = (y * w + x) * 4;
      const a = UNIT[data[k + 3]!]!,
        b = 1 - a;
      const c = brow + (((x / s) | 0) - bx0);
      const i0 = data[k]!,
        i1 = data[k + 1]!,
        i2 = data[k + 2]!;
      sN[c]! += 1;
      sA[c]! += a;
      sF0[c]! += i0 * a;
      sF1[c]! += i1 * a;
      sF2[c]! += i2 * a;
      sB0[c]! += i0 * b;
      sB1[c]! += i1 * b;
      sB2[c]! += i2 * b;
    }
  }
}

/** Summed-area table of a gw x gh grid, one row and column of zeros in front. */
function summedArea(sum: Float64Array, gw: number, gh: number): Float64Array {
  const W1 = gw + 1;
  const t = new Float64Array(W1 * (gh + 1));
  for (let y = 0; y < gh; y++) {
    let run = 0;
    for (let x = 0; x < gw; x++) {
      run += sum[y * gw + x]!;
      t[(y + 1) * W1 + x + 1] = t[y * W1 + x + 1]! + run;
    }
  }
  return t;
}

function windowMeans(
  [tN, tA, tF0, tF1, tF2, tB0, tB1, tB2]: Eight<Float64Array>,
  [mF0, mF1, mF2, mB0, mB1, mB2]: Six<Float32Array>,
  gw: number,
  gh: number,
  R: number,
): void {
  const W1 = gw + 1;
  for (let y = 0; y < gh; y++) {
    const n0 = Math.max(0, y - R) * W1,
      n1 = Math.min(gh, y + R + 1) * W1;
    for (let x = 0; x < gw; x++) {
      const w0 = Math.max(0, x - R),
        w1 = Math.min(gw, x + R + 1);
      const a = n0 + w0,
        b = n0 + w1,
        c = n1 + w0,
        d = n1 + w1;
      const n = tN[d]! - tN[b]! - tN[c]! + tN[a]!;
      if (n === 0) continue;
      const meanA = (tA[d]! - tA[b]! - tA[c]! + tA[a]!) / n;
      const toF = 1 / (255 * n * (meanA + EPS)),
        toB = 1 / (255 * n * (1 - meanA + EPS));
      const cell = y * gw + x;
      mF0[cell] = (tF0[d]! - tF0[b]! - tF0[c]! + tF0[a]!) * toF;
      mF1[cell] = (tF1[d]! - tF1[b]! - tF1[c]! + tF1[a]!) * toF;
      mF2[cell] = (tF2[d]! - tF2[b]! - tF2[c]! + tF2[a]!) * toF;
      mB0[cell] = (tB0[d]! - tB0[b]! - tB0[c]! + tB0[a]!) * toB;
      mB1[cell] = (tB1[d]! - tB1[b]! - tB1[c]! + tB1[a]!) * toB;
      mB2[cell] = (tB2[d]! - tB2[b]! - tB2[c]! + tB2[a]!) * toB;
    }
  }
}

/** The wide pass at the unsure pixels: F times alpha and B per pixel, and where each pixel is in the list. */
interface WideAtBand {
  fa1: Float32Array;
  b1: Float32Array;
  /** Unsure pixel's number + 1, over the band's box (0: not unsure). */
  index: Int32Array;
}

/** The wide pass's F (times alpha) and B at each unsure pixel, the means bilinear between block centres. */
function wideAtBand(data: Uint8Array, w: number, band: Band, grid: WideGrid): WideAtBand {
  const { at, count, left, right, top, bottom } = band;
  const { s, bx0, by0, gw, gh, means } = grid;
  const fa1 = new Float32Array(count * 3),
    b1 = new Float32Array(count * 3);
  const bw = right - left + 1;
  const index = new Int32Array(bw * (bottom - top + 1));
  for (let j = 0; j < count; j++) {
    const p = at[j]!;
    const y = (p / w) | 0,
      x = p - y * w;
    index[(y - top) * bw + x - left] = j + 1;
    const gx = Math.min(gw - 1, Math.max(0, (x + 0.5) / s - 0.5 - bx0)),
      gy = Math.min(gh - 1, Math.max(0, (y + 0.5) / s - 0.5 - by0));
    const cx = Math.max(0, Math.min(gw - 2, gx | 0)),
      cy = Math.max(0, Math.min(gh - 2, gy | 0));
    const tx = gw > 1 ? gx - cx : 0,
      ty = gh > 1 ? gy - cy : 0;
    const c00 = cy * gw + cx,
      c01 = gw > 1 ? c00 + 1 : c00,
      c10 = gh > 1 ? c00 + gw : c00,
      c11 = gh > 1 ? c01 + gw : c01;
    const a = UNIT[data[p * 4 + 3]!]!;
    for (let k = 0; k < 3; k++) {
      const f = means[k]!,
        b = means[3 + k]!;
      const mF = (1 - ty) * ((1 - tx) * f[c00]! + tx * f[c01]!) + ty * ((1 - tx) * f[c10]! + tx * f[c11]!);
      const mB = (1 - ty) * ((1 - tx) * b[c00]! + tx * b[c01]!) + ty * ((1 - tx) * b[c10]! + tx * b[c11]!);
      const i = data[p * 4 + k]! / 255;
      fa1[j * 3 + k] = clip01(mF + a * (i - a * mF - (1 - a) * mB)) * a;
      b1[j * 3 + k] = mB;
    }
  }
  return { fa1, b1, index };
}

/**
 * Add (sign 1) or take out (sign -1) one column of the narrow window, rows y0..y1 at column qx,
 * to the window's sums `acc`: of alpha, of 1 - alpha, of F times alpha per channel.
 */
function addColumn(
  acc: Float64Array,
  data: Uint8Array,
  w: number,
  qx: number,
  y0: number,
  y1: number,
  sign: number,
  band: Band,
  bw: number,
  index: Int32Array,
  fa1: Float32Array,
): void {
  for (let qy = y0; qy <= y1; qy++) {
    const k = (qy * w + qx) * 4;
    const a8 = data[k + 3]!;
    if (a8 === 0) acc[1]! += sign;
    else if (a8 === 255) {
      acc[0]! += sign;
      acc[2]! += sign * UNIT[data[k]!]!;
      acc[3]! += sign * UNIT[data[k + 1]!]!;
      acc[4]! += sign * UNIT[data[k + 2]!]!;
    } else {
      const a = UNIT[a8]!;
      acc[0]! += sign * a;
      acc[1]! += sign * (1 - a);
      const q = (index[(qy - band.top) * bw + qx - band.left]! - 1) * 3;
      acc[2]! += sign * fa1[q]!;
      acc[3]! += sign * fa1[q + 1]!;
      acc[4]! += sign * fa1[q + 2]!;
    }
  }
}

/**
 * Narrow pass at each unsure pixel, from its neighbours' wide-pass F: the photo's own colour where
 * alpha is 1 (what the formula gives there), nothing where it is 0; the wide pass's B is taken at
 * the pixel itself (a mean over about 2 r1 pixels does not change across r2). The cut-out is only
 * read, so every neighbour reads the photo.
 */
function narrowAtBand(data: Uint8Array, w: number, h: number, band: Band, wide: WideAtBand, r2: number): Uint8Array {
  const { at, count } = band;
  const { fa1, b1, index } = wide;
  const bw = band.right - band.left + 1;
  const out = new Uint8Array(count * 3);
  // window sums slide along each row's run of unsure pixels: one column in, one out
  const acc = new Float64Array(5);
  let prev = -2;
  for (let j = 0; j < count; j++) {
    const p = at[j]!;
    const y = (p / w) | 0,
      x = p - y * w;
    const y0 = Math.max(0, y - r2),
      y1 = Math.min(h - 1, y + r2),
      x0 = Math.max(0, x - r2),
      x1 = Math.min(w - 1, x + r2);
    if (p === prev + 1 && x > 0) {
      if (x - r2 - 1 >= 0) addColumn(acc, data, w, x - r2 - 1, y0, y1, -1, band, bw, index, fa1);
      if (x + r2 < w) addColumn(acc, data, w, x + r2, y0, y1, 1, band, bw, index, fa1);
    } else {
      acc.fill(0);
      for (let qx = x0; qx <= x1; qx++) addColumn(acc, data, w, qx, y0, y1, 1, band, bw, index, fa1);
    }
    prev = p;
    const n = (y1 - y0 + 1) * (x1 - x0 + 1);
    const sumA = acc[0]!,
      sumB = acc[1]!;
    const toF = 1 / (n * (sumA / n + EPS)),
      keepB = sumB / n / (sumB / n + EPS),
      a = UNIT[data[p * 4 + 3]!]!;
    for (let c = 0; c < 3; c++) {
      const f = acc[2 + c]! * toF,
        b = b1[j * 3 + c]! * keepB;
      const i = data[p * 4 + c]! / 255;
      out[j * 3 + c] = Math.round(255 * clip01(f + a * (i - a * f - (1 - a) * b)));
    }
  }
  return out;
}
