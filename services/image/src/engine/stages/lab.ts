/** sRGB (8-bit) -> CIELAB (D65): the white balance judges a floor's colour by it, the eval its error. */

function linear(c: number): number {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

export function srgbToLab(r: number, g: number, b: number): [number, number, number] {
  const R = linear(r),
    G = linear(g),
    B = linear(b);
  const x = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / 0.95047;
  const y = 0.2126729 * R + 0.7151522 * G + 0.072175 * B;
  const z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const fx = f(x),
    fy = f(y),
    fz = f(z);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** CIELAB chroma: how far a colour is from grey. */
export function chroma(r: number, g: number, b: number): number {
  const [, a, bb] = srgbToLab(r, g, b);
  return Math.hypot(a, bb);
}
