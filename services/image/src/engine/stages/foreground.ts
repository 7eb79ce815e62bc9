/**
 * Foreground colour estimation where the mask is unsure (0 < alpha < 1): blur-fusion, from Forte
 * and Pitié, "Approximate Fast Foreground Colour Estimation" (ICIP 2021). A pixel at the product's
 * edge is a mix of the product and the floor, I = alpha F + (1 - alpha) B; cut out as it is, a
 * garment on a red carpet keeps a red rim on a white canvas. The estimate takes F and B as the
 * alpha-weighted local means of the product and of the floor, then corrects F by the pixel's own
 * residual: F = F_mean + alpha (I - alpha F_mean - (1 - alpha) B_mean). Two passes, as in the
 * paper: a wide one from the image alone, then a narrow one from the first pass's F and B.
 *
 * A stage on its own, not yet in the pipeline: it changes every product's edge, so it goes in when
 * the eval's edge colour fringe (tools/eval/metrics.ts, edgeFringe) shows it helps without costing
 * anything elsewhere, on the standard and the held-out draws.
 */

export interface ForegroundOptions {
  /** Box radii of the two passes, in pixels (the paper's 90 and 6 at about 1 MP). */
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
  { radii = [90, 6] }: ForegroundOptions = {},
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
