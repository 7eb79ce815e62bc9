import type { Box, Mask } from '../types.js';

/** Pure helpers over binary masks (value > 0 = set). No I/O. */

export function emptyMask(width: number, height: number): Mask {
  return { data: new Uint8Array(width * height), width, height };
}

export function threshold(m: Mask, level = 128): Mask {
  const out = emptyMask(m.width, m.height);
  for (let i = 0; i < m.data.length; i++) out.data[i] = m.data[i]! >= level ? 255 : 0;
  return out;
}

export function area(m: Mask): number {
  let n = 0;
  for (let i = 0; i < m.data.length; i++) if (m.data[i]! > 0) n++;
  return n;
}

export function boundingBox(m: Mask, level = 1): Box | null {
  let left = m.width, top = m.height, right = -1, bottom = -1;
  for (let y = 0; y < m.height; y++) {
    const row = y * m.width;
    for (let x = 0; x < m.width; x++) {
      if (m.data[row + x]! >= level) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  return right < 0 ? null : { left, top, right: right + 1, bottom: bottom + 1 };
}

export interface Components {
  labels: Int32Array; // 0 = none, 1..count
  count: number;
  areas: number[]; // index = label
  boxes: Box[]; // index = label
  touchesBorder: boolean[];
}

/** 4-connected components of the pixels where `inside(value)` holds. */
export function components(m: Mask, inside: (v: number) => boolean = (v) => v > 0): Components {
  const { width: w, height: h, data } = m;
  const labels = new Int32Array(w * h);
  const areas = [0];
  const boxes: Box[] = [{ left: 0, top: 0, right: 0, bottom: 0 }];
  const touches = [false];
  const stack = new Int32Array(w * h);
  let count = 0;
  for (let start = 0; start < w * h; start++) {
    if (labels[start] !== 0 || !inside(data[start]!)) continue;
    count++;
    let sp = 0;
    stack[sp++] = start;
    labels[start] = count;
    let n = 0, l = w, t = h, r = -1, b = -1, border = false;
    while (sp > 0) {
      const p = stack[--sp]!;
      const x = p % w, y = (p - x) / w;
      n++;
      if (x < l) l = x;
      if (x > r) r = x;
      if (y < t) t = y;
      if (y > b) b = y;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) border = true;
      if (x > 0 && labels[p - 1] === 0 && inside(data[p - 1]!)) { labels[p - 1] = count; stack[sp++] = p - 1; }
      if (x < w - 1 && labels[p + 1] === 0 && inside(data[p + 1]!)) { labels[p + 1] = count; stack[sp++] = p + 1; }
      if (y > 0 && labels[p - w] === 0 && inside(data[p - w]!)) { labels[p - w] = count; stack[sp++] = p - w; }
      if (y < h - 1 && labels[p + w] === 0 && inside(data[p + w]!)) { labels[p + w] = count; stack[sp++] = p + w; }
    }
    areas.push(n);
    boxes.push({ left: l, top: t, right: r + 1, bottom: b + 1 });
    touches.push(border);
  }
  return { labels, count, areas, boxes, touchesBorder: touches };
}

/** Separable square max (dilate) or min (erode) filter of radius r. */
function squareFilter(m: Mask, r: number, max: boolean): Mask {
  if (r <= 0) return { ...m, data: m.data.slice() };
  const { width: w, height: h } = m;
  const tmp = new Uint8Array(w * h);
  const out = new Uint8Array(w * h);
  const pad = max ? 0 : 255;
  // Running counts of set pixels in the window make each pass O(N).
  const pass = (src: Uint8Array, dst: Uint8Array, len: number, lines: number, stride: number, step: number) => {
    for (let line = 0; line < lines; line++) {
      const base = line * stride;
      let set = 0;
      let outside = 0;
      for (let k = -r; k <= r; k++) {
        if (k < 0 || k >= len) outside++;
        else if (src[base + k * step]! > 0) set++;
      }
      for (let i = 0; i < len; i++) {
        const size = 2 * r + 1;
        const v = max ? (set > 0 ? 255 : 0) : (set + (pad ? outside : 0) === size ? 255 : 0);
        dst[base + i * step] = v;
        const leaving = i - r, entering = i + r + 1;
        if (leaving < 0 || leaving >= len) outside--;
        else if (src[base + leaving * step]! > 0) set--;
        if (entering < 0 || entering >= len) outside++;
        else if (src[base + entering * step]! > 0) set++;
      }
    }
  };
  pass(m.data, tmp, w, h, w, 1);
  pass(tmp, out, h, w, 1, w);
  return { data: out, width: w, height: h };
}

export const dilate = (m: Mask, r: number): Mask => squareFilter(m, r, true);
export const erode = (m: Mask, r: number): Mask => squareFilter(m, r, false);

export function and(a: Mask, b: Mask): Mask {
  const out = emptyMask(a.width, a.height);
  for (let i = 0; i < out.data.length; i++) out.data[i] = a.data[i]! > 0 && b.data[i]! > 0 ? 255 : 0;
  return out;
}
