import type { Mask } from '../types.js';
import {
  decideLevel,
  type LevelDecision,
  type LevelStrategy,
  MAX_CORRECTION_DEG,
  needsSymmetry,
  SURE_MIRROR_SCORE,
} from './level-confidence.js';
import { boundingBox, moments, momentsOfRuns, rowRuns } from './mask-ops.js';

export { MAX_CORRECTION_DEG, type LevelDecision, type LevelStrategy } from './level-confidence.js';

/**
 * Levelling and the axis of symmetry, computed on masks (pure, no I/O).
 * Angles are in degrees, positive = clockwise on screen (sharp's rotate convention).
 */

/** Nearest-neighbour downscale so searches stay cheap. */
export function shrinkMask(m: Mask, longSide: number): Mask {
  const s = Math.min(1, longSide / Math.max(m.width, m.height));
  if (s === 1) return m;
  const w = Math.max(1, Math.round(m.width * s)),
    h = Math.max(1, Math.round(m.height * s));
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(m.height - 1, Math.floor((y + 0.5) / s));
    for (let x = 0; x < w; x++)
      out[y * w + x] = m.data[sy * m.width + Math.min(m.width - 1, Math.floor((x + 0.5) / s))]!;
  }
  return { data: out, width: w, height: h };
}

/** Rotate about the centre onto an expanded canvas (nearest neighbour). */
export function rotateMask(m: Mask, deg: number): Mask {
  const t = (deg * Math.PI) / 180,
    c = Math.cos(t),
    s = Math.sin(t);
  const w = Math.ceil(Math.abs(m.width * c) + Math.abs(m.height * s));
  const h = Math.ceil(Math.abs(m.width * s) + Math.abs(m.height * c));
  const out = new Uint8Array(w * h);
  const cx = m.width / 2,
    cy = m.height / 2,
    ox = w / 2,
    oy = h / 2;
  // each column's products made once, not once per row: the same operands in the same order, so
  // every source position is bit for bit what dx * c + dy * s + cx gives
  const colC = new Float64Array(w),
    colS = new Float64Array(w);
  for (let x = 0; x < w; x++) {
    const dx = x + 0.5 - ox;
    colC[x] = dx * c;
    colS[x] = -dx * s;
  }
  for (let y = 0; y < h; y++) {
    const dy = y + 0.5 - oy,
      dyS = dy * s,
      dyC = dy * c;
    for (let x = 0; x < w; x++) {
      const fx = colC[x]! + dyS + cx,
        fy = colS[x]! + dyC + cy;
      // a negative position lies outside the mask; for the rest truncation is the floor
      if (fx < 0 || fy < 0 || fx >= m.width || fy >= m.height) continue;
      out[y * w + x] = m.data[(fy | 0) * m.width + (fx | 0)]!;
    }
  }
  return { data: out, width: w, height: h };
}

/** Correction that brings the principal axis to the nearest of horizontal/vertical. */
export function principalCorrection(m: Mask): { deg: number; elongation: number } {
  const mo = moments(m);
  let dev = mo.axisDeg % 90;
  if (dev > 45) dev -= 90;
  if (dev <= -45) dev += 90;
  return { deg: -dev, elongation: mo.elongation };
}

/** Share of the mask that coincides with its mirror image about the vertical line x = axis. */
export function mirrorScore(m: Mask, axis: number): number {
  return mirrorScoreOfRuns(rowRuns(m, { level: 128 }), axis);
}

/**
 * The same score from row runs: the mirror of a run [a, b) about the axis is [2axis - b, 2axis - a),
 * so the overlap is a sum of run intersections per row (a few runs per row, not every pixel).
 */
function mirrorScoreOfRuns(rows: Int32Array[], axis: number): number {
  const twice = Math.round(2 * axis);
  let overlap = 0,
    total = 0;
  for (const r of rows) {
    for (let i = 0; i < r.length; i += 2) {
      const a = r[i]!,
        b = r[i + 1]!;
      total += b - a;
      const ma = twice - b,
        mb = twice - a;
      for (let j = 0; j < r.length; j += 2) {
        const lo = Math.max(ma, r[j]!),
          hi = Math.min(mb, r[j + 1]!);
        if (hi > lo) overlap += hi - lo;
      }
    }
  }
  return total === 0 ? 0 : overlap / total;
}

/** The vertical axis of symmetry: the mirror line (near the centre of mass) with the best overlap. */
export function symmetryAxis(m: Mask): { x: number; score: number } {
  const small = shrinkMask(m, 256);
  const scale = m.width / small.width;
  const mo = moments(small);
  const box = boundingBox(small, 128);
  if (!box) return { x: m.width / 2, score: 0 };
  const span = 0.15 * (box.right - box.left);
  const smallRuns = rowRuns(small, { level: 128 });
  let best = { x: mo.cx + 0.5, score: -1 };
  for (let a = mo.cx + 0.5 - span; a <= mo.cx + 0.5 + span; a += 0.5) {
    const sc = mirrorScoreOfRuns(smallRuns, a);
    if (sc > best.score + 1e-9) best = { x: a, score: sc };
  }
  // refine on the full mask around the coarse answer
  const fullRuns = rowRuns(m, { level: 128 });
  let fine = { x: best.x * scale, score: -1 };
  for (let a = (best.x - 1) * scale; a <= (best.x + 1) * scale; a += 0.5) {
    const sc = mirrorScoreOfRuns(fullRuns, a);
    if (sc > fine.score + 1e-9) fine = { x: a, score: sc };
  }
  return fine;
}

function symmetryAt(small: Mask, deg: number): number {
  const r = rotateMask(small, deg);
  const runs = rowRuns(r, { level: 128 }); // one set of runs for both the centre and the score
  return mirrorScoreOfRuns(runs, momentsOfRuns(runs, r.width, r.height).cx + 0.5);
}

/** The rotation within ±MAX_CORRECTION_DEG that makes the shape most mirror-symmetric. */
export function symmetryCorrection(m: Mask): { deg: number; score: number } {
  const small = shrinkMask(m, 160);
  let best = { deg: 0, score: symmetryAt(small, 0) };
  for (let d = -MAX_CORRECTION_DEG; d <= MAX_CORRECTION_DEG; d += 1) {
    const sc = symmetryAt(small, d);
    if (sc > best.score + 1e-9) best = { deg: d, score: sc };
  }
  const mid = shrinkMask(m, 320);
  let fine = { deg: best.deg, score: symmetryAt(mid, best.deg) };
  for (
    let d = Math.max(-MAX_CORRECTION_DEG, best.deg - 1);
    d <= Math.min(MAX_CORRECTION_DEG, best.deg + 1) + 1e-9;
    d += 0.25
  ) {
    const sc = symmetryAt(mid, d);
    if (sc > fine.score + 1e-9) fine = { deg: d, score: sc };
  }
  // a tilt must earn its keep: only clearly better symmetry justifies turning the product
  const upright = symmetryAt(mid, 0);
  return fine.score - upright < 0.01 + 0.001 * Math.abs(fine.deg) ? { deg: 0, score: upright } : fine;
}

/** A side counts as a straight edge from this share of the product's longer side. */
export const STRAIGHT_RUN_SHARE = 0.2;

/** Long side of the mask copy whose outline is read. */
const EDGE_SIDE = 384;

/**
 * How much of an outline lies on straight lines once it is turned by `deg` (clockwise, as
 * rotateMask turns): the outline's pixels are carried by the rotation and counted in one-pixel
 * bins across the rows and across the columns; a side that is level after the turn piles up in one
 * or two bins. `score` sums the squared counts of adjacent bin pairs (a sharper pile scores more),
 * `straight` counts the pixels in pairs of at least `minRun` (sides that long).
 */
function straightAt(xs: Float64Array, ys: Float64Array, deg: number, minRun: number) {
  const t = (deg * Math.PI) / 180,
    c = Math.cos(t),
    s = Math.sin(t);
  const n = xs.length;
  const us = new Int32Array(n),
    vs = new Int32Array(n);
  let uMin = Infinity,
    vMin = Infinity,
    uMax = -Infinity,
    vMax = -Infinity;
  for (let i = 0; i < n; i++) {
    const u = Math.floor(xs[i]! * c - ys[i]! * s),
      v = Math.floor(xs[i]! * s + ys[i]! * c);
    us[i] = u;
    vs[i] = v;
    if (u < uMin) uMin = u;
    if (u > uMax) uMax = u;
    if (v < vMin) vMin = v;
    if (v > vMax) vMax = v;
  }
  let score = 0,
    straight = 0;
  for (const [bins, lo, hi] of [
    [us, uMin, uMax],
    [vs, vMin, vMax],
  ] as const) {
    const hist = new Int32Array(hi - lo + 2);
    for (let i = 0; i < n; i++) hist[bins[i]! - lo]!++;
    const marked = new Uint8Array(hist.length);
    for (let b = 0; b + 1 < hist.length; b++) {
      const pair = hist[b]! + hist[b + 1]!;
      score += pair * pair;
      if (pair >= minRun) marked[b] = marked[b + 1] = 1;
    }
    for (let b = 0; b < hist.length; b++) if (marked[b]) straight += hist[b]!;
  }
  return { score, straight };
}

/**
 * The rotation within ±MAX_CORRECTION_DEG that brings the outline's straight edges (a bag's base
 * and sides, a box, a folded garment's hem) to level: the angle at which the most outline piles up
 * on level lines (straightAt), searched by the degree and then by the quarter degree. `strength`
 * is the share of the outline on straight sides at that angle: 0.9 and more for a box, 0.2 or less
 * for a disc. It reads only the shape: a product cut by the photo's frame has a straight side
 * there that says nothing, so callers leave it out then.
 */
export function edgeCorrection(m: Mask): { deg: number; strength: number } {
  const small = shrinkMask(m, EDGE_SIDE);
  const { width: w, height: h, data } = small;
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && data[y * w + x]! >= 128;
  // the outline: pixels inside with a 4-neighbour outside, as their centres
  const px: number[] = [],
    py: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (inside(x, y) && (!inside(x - 1, y) || !inside(x + 1, y) || !inside(x, y - 1) || !inside(x, y + 1))) {
        px.push(x + 0.5);
        py.push(y + 0.5);
      }
  const box = boundingBox(small, 128);
  if (!box || px.length === 0) return { deg: 0, strength: 0 };
  const minRun = Math.max(4, STRAIGHT_RUN_SHARE * Math.max(box.right - box.left, box.bottom - box.top));
  const xs = Float64Array.from(px),
    ys = Float64Array.from(py);
  let best = { deg: 0, score: straightAt(xs, ys, 0, minRun).score };
  for (let d = -MAX_CORRECTION_DEG; d <= MAX_CORRECTION_DEG; d += 1) {
    const sc = straightAt(xs, ys, d, minRun).score;
    if (sc > best.score + 1e-9) best = { deg: d, score: sc };
  }
  let fine = { deg: best.deg, ...straightAt(xs, ys, best.deg, minRun) };
  for (
    let d = Math.max(-MAX_CORRECTION_DEG, best.deg - 1);
    d <= Math.min(MAX_CORRECTION_DEG, best.deg + 1) + 1e-9;
    d += 0.25
  ) {
    const at = straightAt(xs, ys, d, minRun);
    if (at.score > fine.score + 1e-9) fine = { deg: d, ...at };
  }
  // each outline pixel is counted across the rows and across the columns: a corner can be on both
  return { deg: fine.deg, strength: Math.min(1, fine.straight / xs.length) };
}

/** How far to rotate the product (degrees, clockwise) so that it stands level, and whether that is sure. */
export function levelDecision(m: Mask, strategy: LevelStrategy, cutByFrame = false): LevelDecision {
  if (strategy === 'none') return decideLevel({ strategy, symmetry: null, principal: { deg: 0, elongation: 1 } });
  const pca = principalCorrection(m);
  const principal = { deg: round(pca.deg), elongation: pca.elongation };
  const sym = needsSymmetry(strategy, principal) ? symmetryCorrection(m) : null;
  const symmetry = sym && { deg: round(sym.deg), score: sym.score };
  // the outline's straight edges are read only where the mirror axis alone does not settle the level
  const edge = sym && sym.score < SURE_MIRROR_SCORE ? edgeCorrection(m) : null;
  const edges = edge && { deg: round(edge.deg), strength: edge.strength };
  const decision = decideLevel({ strategy, symmetry, principal, cutByFrame, edges });
  return { ...decision, deg: round(decision.deg) };
}

/** How far to rotate the product (degrees, clockwise) so that it stands level (0 when unsure). */
export function levelCorrection(m: Mask, strategy: LevelStrategy): number {
  return levelDecision(m, strategy).deg;
}

function round(d: number): number {
  return Math.round(d * 100) / 100 + 0; // +0 turns -0 into 0
}
