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
  let left = m.width,
    top = m.height,
    right = -1,
    bottom = -1;
  const { width: w, data } = m;
  for (let y = 0; y < m.height; y++) {
    const row = y * w;
    // each row read from its ends inwards: a product's rows stop at its first and last pixel
    let a = 0;
    while (a < w && data[row + a]! < level) a++;
    if (a === w) continue;
    let b = w - 1;
    while (data[row + b]! < level) b--;
    if (a < left) left = a;
    if (b > right) right = b;
    if (top > y) top = y;
    bottom = y;
  }
  return right < 0 ? null : { left, top, right: right + 1, bottom: bottom + 1 };
}

/**
 * A box in mask pixels as a box in the pixels of an image `sx`, `sy` times larger: widened to
 * whole pixels, grown by `pad`, kept inside the image.
 */
export function scaleBox(b: Box, sx: number, sy: number, width: number, height: number, pad = 0): Box {
  return {
    left: Math.max(0, Math.floor(b.left * sx) - pad),
    top: Math.max(0, Math.floor(b.top * sy) - pad),
    right: Math.min(width, Math.ceil(b.right * sx) + pad),
    bottom: Math.min(height, Math.ceil(b.bottom * sy) + pad),
  };
}

export interface Components {
  /** Each row's runs of selected pixels, [start, end) pairs left to right (as rowRuns). */
  runs: Int32Array[];
  /** The label of each run: runLabels[y][i] belongs to runs[y][2i..2i+1]. */
  runLabels: Int32Array[];
  /** Label per pixel (0 = none, 1..count), made on first use: most callers need only the runs. */
  readonly labels: Int32Array;
  count: number;
  areas: number[]; // index = label
  boxes: Box[]; // index = label
  touchesBorder: boolean[];
}

/** Which pixels a component search looks at: value >= level, or value < level when inverted. */
export interface Selection {
  level?: number;
  invert?: boolean;
}

/** Runs of selected pixels per row: runs[y] holds [start, end) pairs, left to right. */
export function rowRuns(m: Mask, select: Selection = {}): Int32Array[] {
  const level = select.level ?? 1,
    invert = select.invert ?? false;
  const { width: w, height: h, data } = m;
  const rows: Int32Array[] = [];
  const scratch = new Int32Array(w + 1);
  // four pixels at a time across stretches of 0 or of 255: a mask is mostly such stretches (the
  // words are read from a copy in the rare mask that does not start on a whole word)
  const aligned = data.byteOffset % 4 === 0 ? data : data.slice();
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2);
  for (let y = 0; y < h; y++) {
    const n = runsOfRow(aligned, words, y * w, w, level, invert, scratch);
    rows.push(scratch.slice(0, n));
  }
  return rows;
}

/**
 * Row `row`'s runs of selected pixels into scratch, [start, end) pairs; returns how many numbers.
 * Whole words of 0 (never selected, unless inverted) or of 255 (always, unless inverted) are
 * skipped four pixels at a time: words that start on a multiple of four bytes and end within the
 * row. At a level outside 1..255 no word is skipped (0 or 255 may be selected either way).
 */
function runsOfRow(
  data: Uint8Array,
  words: Uint32Array,
  row: number,
  w: number,
  level: number,
  invert: boolean,
  scratch: Int32Array,
): number {
  // the word that is all outside a run, and the word that is all inside one
  // (-1: a value no word has, where the level leaves them undecided)
  const decided = level >= 1 && level <= 255;
  const outside = decided ? (invert ? 0xffffffff : 0) : -1,
    inside = decided ? (invert ? 0 : 0xffffffff) : -1;
  let n = 0,
    x = 0;
  while (x < w) {
    while (wordAt(words, row, x, w, outside)) x += 4;
    while (x < w && data[row + x]! >= level === invert && !wordAt(words, row, x, w, outside)) x++;
    if (x >= w) break;
    if (wordAt(words, row, x, w, outside)) continue;
    scratch[n++] = x;
    for (;;) {
      while (wordAt(words, row, x, w, inside)) x += 4;
      if (x >= w || data[row + x]! >= level === invert) break;
      x++;
    }
    scratch[n++] = x;
  }
  return n;
}

/** Whether pixels x..x+3 of the row are one whole word of the mask, equal to `value`. */
function wordAt(words: Uint32Array, row: number, x: number, w: number, value: number): boolean {
  return ((row + x) & 3) === 0 && x + 4 <= w && words[(row + x) >> 2] === value;
}

/**
 * 4-connected components of the selected pixels. Labels are numbered in raster order of each
 * component's first pixel. Works on row runs joined by union-find: a mask of a million pixels
 * has a few thousand runs, so this is far cheaper than visiting pixels one by one.
 */
export function components(m: Mask, select: Selection = {}): Components {
  const { width: w, height: h } = m;
  const runs = rowRuns(m, select);
  let total = 0;
  for (const r of runs) total += r.length / 2;
  const parent = new Int32Array(total);
  for (let i = 0; i < total; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const union = (a: number, b: number) => {
    const ra = find(a),
      rb = find(b);
    if (ra < rb) parent[rb] = ra;
    else if (rb < ra) parent[ra] = rb;
  };
  const firstRun = new Int32Array(h + 1);
  for (let y = 0, k = 0; y < h; y++) {
    firstRun[y] = k;
    k += runs[y]!.length / 2;
  }
  firstRun[h] = total;
  for (let y = 1; y < h; y++) {
    const cur = runs[y]!,
      prev = runs[y - 1]!;
    let j = 0;
    for (let i = 0; i < cur.length; i += 2) {
      const a = cur[i]!,
        b = cur[i + 1]!;
      while (j < prev.length && prev[j + 1]! <= a) j += 2;
      for (let k = j; k < prev.length && prev[k]! < b; k += 2) union(firstRun[y]! + i / 2, firstRun[y - 1]! + k / 2);
    }
  }
  const labelOfRoot = new Int32Array(total);
  const runLabel = new Int32Array(total);
  const runLabels: Int32Array[] = [];
  const areas = [0];
  const boxes: Box[] = [{ left: 0, top: 0, right: 0, bottom: 0 }];
  const touches = [false];
  let count = 0;
  for (let y = 0; y < h; y++) {
    const r = runs[y]!;
    runLabels.push(runLabel.subarray(firstRun[y]!, firstRun[y + 1]!));
    for (let i = 0; i < r.length; i += 2) {
      const id = firstRun[y]! + i / 2,
        root = find(id);
      let label = labelOfRoot[root]!;
      if (label === 0) {
        label = labelOfRoot[root] = ++count;
        areas.push(0);
        boxes.push({ left: w, top: y, right: 0, bottom: y + 1 });
        touches.push(false);
      }
      runLabel[id] = label;
      const a = r[i]!,
        b = r[i + 1]!;
      areas[label]! += b - a;
      const box = boxes[label]!;
      if (a < box.left) box.left = a;
      if (b > box.right) box.right = b;
      box.bottom = y + 1;
      if (a === 0 || b === w || y === 0 || y === h - 1) touches[label] = true;
    }
  }
  let labels: Int32Array | null = null;
  return {
    runs,
    runLabels,
    get labels() {
      labels ??= labelsOfRuns(runs, runLabels, w, h);
      return labels;
    },
    count,
    areas,
    boxes,
    touchesBorder: touches,
  };
}

function labelsOfRuns(runs: Int32Array[], runLabels: Int32Array[], w: number, h: number): Int32Array {
  const labels = new Int32Array(w * h);
  for (let y = 0; y < h; y++) {
    const r = runs[y]!,
      l = runLabels[y]!;
    for (let i = 0; i < r.length; i += 2) labels.fill(l[i / 2]!, y * w + r[i]!, y * w + r[i + 1]!);
  }
  return labels;
}

/**
 * Set to `value` every pixel of `out` (a mask's data, row stride `width`) that belongs to a
 * component marked in `which` (indexed by label). Run by run, not pixel by pixel.
 */
export function paintComponents(
  cc: Components,
  which: Uint8Array,
  out: Uint8Array,
  width: number,
  value: number,
): void {
  for (let y = 0; y < cc.runs.length; y++) {
    const r = cc.runs[y]!,
      l = cc.runLabels[y]!;
    for (let i = 0; i < r.length; i += 2)
      if (which[l[i / 2]!]) out.fill(value, y * width + r[i]!, y * width + r[i + 1]!);
  }
}

/**
 * Separable square max (dilate) or min (erode) filter of radius r, at a cost that does not grow
 * with r: across, each row's runs of set pixels are widened or narrowed by r; down, one running
 * count of set pixels per column is carried from row to row (memory read row by row).
 * Outside the mask counts as "unset" for dilation and is ignored for erosion, so the image border
 * does not eat into the product. Only the set pixels' bounding box grown by r is visited (beyond
 * it both answers are "unset"): a product covers a fraction of the photo, and these filters run
 * several times per image.
 */
function squareFilter(m: Mask, r: number, max: boolean): Mask {
  if (r <= 0) return { ...m, data: m.data.slice() };
  const { width: w, height: h, data } = m;
  const out = new Uint8Array(w * h);
  const set = boundingBox(m);
  if (!set) return { data: out, width: w, height: h };
  // a window clipped at this region's edge is clipped at the image's edge too, or holds unset pixels
  const x0 = Math.max(0, set.left - r),
    x1 = Math.min(w, set.right + r),
    y0 = Math.max(0, set.top - r),
    y1 = Math.min(h, set.bottom + r);
  const rw = x1 - x0,
    rh = y1 - y0;
  // the region's rows padded to whole 32-bit words, for the vertical pass below
  const RW = (rw + 3) & ~3;
  const across = new Uint8Array(RW * rh); // 1 where the horizontal pass answers "set"
  for (let y = 0; y < rh; y++) {
    const src = (y + y0) * w + x0,
      at = y * RW;
    // runs of set pixels, each widened (dilate) or narrowed (erode) by r; a run that starts or ends
    // at the region's edge starts or ends at the image's edge (the region holds r unset pixels
    // beyond the shape everywhere else), where erosion does not narrow it
    for (let x = 0; x < rw; ) {
      while (x < rw && data[src + x] === 0) x++;
      if (x >= rw) break;
      const a = x;
      // the run's end: a product's rows are long runs, which the native search skips fastest
      const end = data.indexOf(0, src + x);
      x = end < 0 || end >= src + rw ? rw : end - src;
      const from = max ? Math.max(0, a - r) : a === 0 ? 0 : a + r,
        to = max ? Math.min(rw, x + r) : x === rw ? rw : x - r;
      if (to > from) across.fill(1, at + from, at + to);
    }
  }
  const answer = 2 * r + 1 <= 255 ? verticalInWords(across, RW, rh, r, max) : verticalByColumn(across, RW, rh, r, max);
  for (let y = 0; y < rh; y++) out.set(answer.subarray(y * RW, y * RW + rw), (y + y0) * w + x0);
  return { data: out, width: w, height: h };
}

const LOW7 = 0x7f7f7f7f,
  HIGH = 0x80808080;

/**
 * The vertical pass four columns at a time: each column's running count of set pixels in its
 * window is a byte (at most 2r + 1 <= 255), so four counts add and subtract as one 32-bit word
 * with no carry between them (a pixel leaving was counted when it entered). The answer per byte,
 * 255 or 0, comes from the usual test for zero bytes in a word. Rows whose window the region's
 * edge clips (at most r at each end) go column by column.
 */
function verticalInWords(across: Uint8Array, RW: number, rh: number, r: number, max: boolean): Uint8Array {
  const res = new Uint8Array(RW * rh);
  const counts = new Uint8Array(RW);
  const words = RW >> 2;
  const a32 = new Uint32Array(across.buffer, across.byteOffset, across.length >> 2),
    c32 = new Uint32Array(counts.buffer),
    r32 = new Uint32Array(res.buffer);
  for (let y = 0; y < Math.min(r, rh); y++) for (let x = 0, at = y * RW; x < RW; x++) counts[x]! += across[at + x]!;
  for (let y = 0; y < rh; y++) {
    const span = Math.min(y + r + 1, rh) - Math.max(y - r, 0);
    if (y + r < rh && y - r - 1 >= 0) {
      const enter = (y + r) * words,
        leave = (y - r - 1) * words,
        row = y * words;
      if (max) {
        for (let k = 0; k < words; k++) {
          const n = c32[k]! + a32[enter + k]! - a32[leave + k]!;
          c32[k] = n;
          // a byte's high bit set where its count is not zero, then spread to the whole byte
          r32[row + k] = (((((n & LOW7) + LOW7) | n) & HIGH) >>> 7) * 255;
        }
      } else {
        const full = span * 0x01010101;
        for (let k = 0; k < words; k++) {
          const n = c32[k]! + a32[enter + k]! - a32[leave + k]!;
          c32[k] = n;
          const d = n ^ full; // zero bytes where the whole window is set
          r32[row + k] = ((~(((d & LOW7) + LOW7) | d) & HIGH) >>> 7) * 255;
        }
      }
      continue;
    }
    if (y + r < rh) for (let x = 0, at = (y + r) * RW; x < RW; x++) counts[x]! += across[at + x]!;
    if (y - r - 1 >= 0) for (let x = 0, at = (y - r - 1) * RW; x < RW; x++) counts[x]! -= across[at + x]!;
    for (let x = 0, at = y * RW; x < RW; x++) res[at + x] = (max ? counts[x]! > 0 : counts[x] === span) ? 255 : 0;
  }
  return res;
}

/** The vertical pass column by column, for windows too tall for a byte's count (r > 127). */
function verticalByColumn(across: Uint8Array, RW: number, rh: number, r: number, max: boolean): Uint8Array {
  const res = new Uint8Array(RW * rh);
  const counts = new Int32Array(RW);
  for (let y = 0; y < Math.min(r, rh); y++) for (let x = 0, at = y * RW; x < RW; x++) counts[x]! += across[at + x]!;
  for (let y = 0; y < rh; y++) {
    const span = Math.min(y + r + 1, rh) - Math.max(y - r, 0);
    if (y + r < rh) for (let x = 0, at = (y + r) * RW; x < RW; x++) counts[x]! += across[at + x]!;
    if (y - r - 1 >= 0) for (let x = 0, at = (y - r - 1) * RW; x < RW; x++) counts[x]! -= across[at + x]!;
    for (let x = 0, at = y * RW; x < RW; x++) res[at + x] = (max ? counts[x]! > 0 : counts[x] === span) ? 255 : 0;
  }
  return res;
}

export const dilate = (m: Mask, r: number): Mask => squareFilter(m, r, true);
export const erode = (m: Mask, r: number): Mask => squareFilter(m, r, false);

export function and(a: Mask, b: Mask): Mask {
  const out = emptyMask(a.width, a.height);
  for (let i = 0; i < out.data.length; i++) out.data[i] = a.data[i]! > 0 && b.data[i]! > 0 ? 255 : 0;
  return out;
}

/** The pixels of `a` that `b` does not have, or null when there are none. */
export function without(a: Mask, b: Mask): Mask | null {
  const out = emptyMask(a.width, a.height);
  let any = false;
  for (let p = 0; p < out.data.length; p++)
    if (a.data[p]! > 0 && b.data[p] === 0) {
      out.data[p] = 255;
      any = true;
    }
  return any ? out : null;
}

/** Add up `values` over each component's pixels in its first `rows` rows into sums[label]. */
export function sumPerComponent(cc: Components, values: Mask, sums: Float64Array, rows = cc.runs.length): void {
  const w = values.width,
    v = values.data;
  for (let y = 0; y < rows; y++) {
    const r = cc.runs[y]!,
      l = cc.runLabels[y]!;
    for (let i = 0; i < r.length; i += 2) {
      let s = 0;
      for (let p = y * w + r[i]!, end = y * w + r[i + 1]!; p < end; p++) s += v[p]!;
      sums[l[i / 2]!]! += s;
    }
  }
}

export interface Moments {
  area: number;
  cx: number;
  cy: number;
  /** Principal axis direction, degrees, clockwise from the x axis. */
  axisDeg: number;
  /** sqrt(major/minor eigenvalue): 1 for a disc or a square. */
  elongation: number;
  /** The pixels' variance along the principal axis and across it (a bar L long has L²/12 along). */
  major: number;
  minor: number;
}

export function moments(m: Mask): Moments {
  return momentsOfRuns(rowRuns(m, { level: 128 }), m.width, m.height);
}

/** The same moments from a mask's row runs (pixels >= 128), for callers that have them already. */
export function momentsOfRuns(rows: Int32Array[], width: number, height: number): Moments {
  // sums over row runs in closed form: a run [a, b) on row y adds b - a pixels, sum x, sum x^2
  let n = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    syy = 0,
    sxy = 0;
  const sumTo = (k: number) => (k * (k + 1)) / 2,
    sqTo = (k: number) => (k * (k + 1) * (2 * k + 1)) / 6;
  for (let y = 0; y < rows.length; y++) {
    const r = rows[y]!;
    for (let i = 0; i < r.length; i += 2) {
      const a = r[i]!,
        b = r[i + 1]!,
        len = b - a,
        xs = sumTo(b - 1) - sumTo(a - 1);
      n += len;
      sx += xs;
      sy += y * len;
      sxx += sqTo(b - 1) - sqTo(a - 1);
      syy += y * y * len;
      sxy += y * xs;
    }
  }
  if (n === 0) return { area: 0, cx: width / 2, cy: height / 2, axisDeg: 0, elongation: 1, major: 0, minor: 0 };
  const cx = sx / n,
    cy = sy / n;
  const cxx = sxx - n * cx * cx,
    cyy = syy - n * cy * cy,
    cxy = sxy - n * cx * cy;
  const axis = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
  const common = Math.sqrt(((cxx - cyy) / 2) ** 2 + cxy * cxy);
  const l1 = (cxx + cyy) / 2 + common,
    l2 = Math.max(1e-9, (cxx + cyy) / 2 - common);
  return {
    area: n,
    cx,
    cy,
    axisDeg: (axis * 180) / Math.PI,
    elongation: Math.sqrt(l1 / l2),
    major: l1 / n,
    minor: Math.max(0, (cxx + cyy) / 2 - common) / n,
  };
}
