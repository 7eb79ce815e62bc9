import type { RawImage } from '../types.js';

/**
 * White balance estimated from the whole scene (shades-of-grey, Minkowski p = 6): the scene's
 * average reflectance is assumed neutral, weighted towards bright surfaces. Gains are clamped so
 * a strongly coloured scene cannot push the product far from its own colours.
 */
export const MAX_GAIN = 1.2;
export const MIN_GAIN = 1 / 1.2;

export function estimateGains(rgb: RawImage, p = 6): [number, number, number] {
  const ch = rgb.channels;
  const sums: [number, number, number] = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < rgb.data.length; i += ch) {
    const r = rgb.data[i]!, g = rgb.data[i + 1]!, b = rgb.data[i + 2]!;
    if (r >= 250 || g >= 250 || b >= 250) continue; // clipped highlights carry no colour
    if (r + g + b < 30) continue; // nor does black
    sums[0] += (r / 255) ** p;
    sums[1] += (g / 255) ** p;
    sums[2] += (b / 255) ** p;
    n++;
  }
  if (n < 16) return [1, 1, 1];
  const est = sums.map((s) => (s / n) ** (1 / p)) as [number, number, number];
  const grey = (est[0] + est[1] + est[2]) / 3;
  const gains = est.map((e) => Math.min(MAX_GAIN, Math.max(MIN_GAIN, e > 0 ? grey / e : 1))) as [number, number, number];
  // keep overall brightness: normalise so the gains' mean is 1
  const mean = (gains[0] + gains[1] + gains[2]) / 3;
  return gains.map((g) => g / mean) as [number, number, number];
}

/** Apply per-channel gains in place (8-bit RGB or RGBA; alpha untouched). */
export function applyGains(img: RawImage, gains: [number, number, number]): RawImage {
  const lut = gains.map((g) => {
    const t = new Uint8Array(256);
    for (let v = 0; v < 256; v++) t[v] = Math.min(255, Math.round(v * g));
    return t;
  }) as [Uint8Array, Uint8Array, Uint8Array];
  const out = Buffer.from(img.data);
  for (let i = 0; i < out.length; i += img.channels) {
    out[i] = lut[0][out[i]!]!;
    out[i + 1] = lut[1][out[i + 1]!]!;
    out[i + 2] = lut[2][out[i + 2]!]!;
  }
  return { ...img, data: out };
}
