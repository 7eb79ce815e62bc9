import type { CheckInput, CheckResult } from './preset.js';

/** Reusable marketplace rules; each says what it measured. */

export function minLongSide(min: number) {
  return (i: CheckInput): CheckResult => {
    const long = Math.max(i.width, i.height);
    return { rule: `long side >= ${min} px`, pass: long >= min, detail: `long side is ${long} px` };
  };
}

export function minSize(minW: number, minH: number) {
  return (i: CheckInput): CheckResult => ({
    rule: `at least ${minW}x${minH} px`,
    pass: i.width >= minW && i.height >= minH,
    detail: `image is ${i.width}x${i.height} px`,
  });
}

export function minShortSide(min: number) {
  return (i: CheckInput): CheckResult => {
    const short = Math.min(i.width, i.height);
    return { rule: `short side >= ${min} px`, pass: short >= min, detail: `short side is ${short} px` };
  };
}

/** ratio = width / height, within 1%. */
export function aspect(ratio: number, name: string) {
  return (i: CheckInput): CheckResult => {
    const actual = i.width / i.height;
    return {
      rule: `aspect ${name}`,
      pass: Math.abs(actual / ratio - 1) <= 0.01,
      detail: `aspect is ${actual.toFixed(3)} (want ${ratio.toFixed(3)})`,
    };
  };
}

export function exactSize(w: number, h: number) {
  return (i: CheckInput): CheckResult => ({
    rule: `exactly ${w}x${h} px`,
    pass: i.width === w && i.height === h,
    detail: `image is ${i.width}x${i.height} px`,
  });
}

export function formatIn(formats: string[]) {
  return (i: CheckInput): CheckResult => {
    const f = i.transparent ? 'png' : i.format;
    return { rule: `format ${formats.join('/')}`, pass: formats.includes(f), detail: `format is ${f}` };
  };
}

export function opaque() {
  return (i: CheckInput): CheckResult => ({
    rule: 'no transparency',
    pass: !i.transparent,
    detail: i.transparent ? 'transparent PNG' : 'opaque',
  });
}

/** Every pixel outside the product's box (plus a 1% band) must be pure white. */
export function pureWhiteBackground() {
  return (i: CheckInput): CheckResult => {
    const { pixels: p, productBox: b } = i;
    const pad = Math.round(0.01 * Math.max(p.width, p.height));
    let total = 0,
      white = 0;
    for (let y = 0; y < p.height; y++) {
      const inRows = y >= b.top - pad && y < b.bottom + pad;
      for (let x = 0; x < p.width; x++) {
        if (inRows && x >= b.left - pad && x < b.right + pad) continue;
        const k = (y * p.width + x) * p.channels;
        total++;
        if (
          p.data[k] === 255 &&
          p.data[k + 1] === 255 &&
          p.data[k + 2] === 255 &&
          (p.channels < 4 || p.data[k + 3] === 255)
        )
          white++;
      }
    }
    const share = total ? white / total : 1;
    return {
      rule: 'background RGB 255',
      pass: share >= 0.999,
      detail: `${(share * 100).toFixed(2)}% of background pixels are pure white${i.background !== 'white' ? ` (background is ${i.background})` : ''}`,
    };
  };
}

/** The product's longer extent fills at least `min` of the canvas side it lies along. */
export function productFill(min: number) {
  return (i: CheckInput): CheckResult => {
    const b = i.productBox;
    const fill = Math.max((b.right - b.left) / i.width, (b.bottom - b.top) / i.height);
    return {
      rule: `product fills >= ${Math.round(min * 100)}%`,
      pass: fill >= min,
      detail: `product fills ${(fill * 100).toFixed(1)}%`,
    };
  };
}

/** No frame: the outermost rows/columns must not differ from the band just inside them. */
export function noBorder() {
  return (i: CheckInput): CheckResult => {
    const p = i.pixels;
    const px = (x: number, y: number) => {
      const k = (y * p.width + x) * p.channels;
      return [p.data[k]!, p.data[k + 1]!, p.data[k + 2]!];
    };
    let diff = 0,
      n = 0;
    const d = Math.min(6, Math.floor(Math.min(p.width, p.height) / 4));
    for (let x = 0; x < p.width; x += 4) {
      for (const [edge, inner] of [
        [0, d],
        [p.height - 1, p.height - 1 - d],
      ] as const) {
        const a = px(x, edge),
          c = px(x, inner);
        diff += Math.abs(a[0]! - c[0]!) + Math.abs(a[1]! - c[1]!) + Math.abs(a[2]! - c[2]!);
        n++;
      }
    }
    for (let y = 0; y < p.height; y += 4) {
      for (const [edge, inner] of [
        [0, d],
        [p.width - 1, p.width - 1 - d],
      ] as const) {
        const a = px(edge, y),
          c = px(inner, y);
        diff += Math.abs(a[0]! - c[0]!) + Math.abs(a[1]! - c[1]!) + Math.abs(a[2]! - c[2]!);
        n++;
      }
    }
    const mean = n ? diff / n : 0;
    return {
      rule: 'no border',
      pass: mean < 6,
      detail: `edge differs from the inside by ${mean.toFixed(1)} on average`,
    };
  };
}
