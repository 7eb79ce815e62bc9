import type { Recipe } from '../recipes/index.js';
import { type Box, boxHeight, boxWidth } from '../types.js';

/** Where the product sits on the canvas: pure arithmetic, no pixels. */

export interface Measurement {
  /** Product bounding box in the straightened image. */
  box: Box;
  /** Vertical axis of symmetry (x) in the straightened image. */
  axisX: number;
  /** Bounding boxes of separate parts (largest first), for pairs. */
  parts: Box[];
}

export interface Placement {
  /** Region of the straightened image to take. */
  region: Box;
  /** Size it is scaled to. */
  width: number;
  height: number;
  /** Its top-left corner on the canvas. */
  left: number;
  top: number;
}

export interface Layout {
  canvasWidth: number;
  canvasHeight: number;
  placements: Placement[];
  /** Union of the placed product, canvas coordinates. */
  productBox: Box;
}

export function canvasSize(longSide: number, aspect: number): { width: number; height: number } {
  return aspect >= 1
    ? { width: longSide, height: Math.round(longSide / aspect) }
    : { width: Math.round(longSide * aspect), height: longSide };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}

function union(ps: Placement[]): Box {
  return {
    left: Math.min(...ps.map((p) => p.left)),
    top: Math.min(...ps.map((p) => p.top)),
    right: Math.max(...ps.map((p) => p.left + p.width)),
    bottom: Math.max(...ps.map((p) => p.top + p.height)),
  };
}

function pairLayout(parts: Box[], cw: number, ch: number, margin: number): Placement[] | null {
  const [a, b] = [...parts.slice(0, 2)].sort((p, q) => p.left - q.left) as [Box, Box];
  if (!a || !b || a.right > b.left) return null; // overlapping in x: keep them as photographed
  const innerW = cw * (1 - 2 * margin),
    innerH = ch * (1 - 2 * margin);
  const gapUnits = 0.08 * Math.max(boxWidth(a), boxWidth(b));
  const s = Math.min(innerW / (boxWidth(a) + gapUnits + boxWidth(b)), innerH / Math.max(boxHeight(a), boxHeight(b)));
  const wa = Math.max(1, Math.round(boxWidth(a) * s)),
    ha = Math.max(1, Math.round(boxHeight(a) * s));
  const wb = Math.max(1, Math.round(boxWidth(b) * s)),
    hb = Math.max(1, Math.round(boxHeight(b) * s));
  const gap = Math.round(gapUnits * s);
  const left = Math.round((cw - (wa + gap + wb)) / 2);
  const baseline = Math.round((ch + Math.max(ha, hb)) / 2); // one shared floor line
  return [
    { region: a, width: wa, height: ha, left, top: baseline - ha },
    { region: b, width: wb, height: hb, left: left + wa + gap, top: baseline - hb },
  ];
}

/** Cut-out products: scaled to fit inside the margins, centred on their axis. */
export function planCutout(
  m: Measurement,
  recipe: Recipe,
  longSide: number,
  aspect = recipe.aspect,
  margin = recipe.margin,
): Layout {
  const { width: cw, height: ch } = canvasSize(longSide, aspect);
  if (recipe.pairSideBySide && m.parts.length >= 2) {
    const pair = pairLayout(m.parts, cw, ch, margin);
    if (pair) return { canvasWidth: cw, canvasHeight: ch, placements: pair, productBox: union(pair) };
  }
  const box = m.box;
  const axis = recipe.centreOnSymmetry ? m.axisX : (box.left + box.right) / 2;
  const halfW = Math.max(axis - box.left, box.right - axis, 1);
  const s = Math.min((cw * (1 - 2 * margin)) / (2 * halfW), (ch * (1 - 2 * margin)) / Math.max(1, boxHeight(box)));
  const width = Math.max(1, Math.round(boxWidth(box) * s));
  const height = Math.max(1, Math.round(boxHeight(box) * s));
  const placement: Placement = {
    region: box,
    width,
    height,
    left: clamp(Math.round(cw / 2 - (axis - box.left) * s), 0, cw - width),
    top: clamp(Math.round((ch - height) / 2), 0, ch - height),
  };
  return { canvasWidth: cw, canvasHeight: ch, placements: [placement], productBox: union([placement]) };
}

/** Close-ups: the subject's box plus margin, widened to the canvas ratio, kept inside the photo. */
export function planCrop(
  subject: Box | null,
  imageW: number,
  imageH: number,
  recipe: Recipe,
  longSide: number,
  aspect = recipe.aspect,
): Layout {
  const { width: cw, height: ch } = canvasSize(longSide, aspect);
  let b = subject ?? { left: 0, top: 0, right: imageW, bottom: imageH };
  const padX = boxWidth(b) * recipe.margin,
    padY = boxHeight(b) * recipe.margin;
  let w = boxWidth(b) + 2 * padX,
    h = boxHeight(b) + 2 * padY;
  if (w / h < aspect) w = h * aspect;
  else h = w / aspect;
  if (w > imageW) {
    w = imageW;
    h = Math.min(h, w / aspect);
  }
  if (h > imageH) {
    h = imageH;
    w = Math.min(w, h * aspect);
  }
  const cx = (b.left + b.right) / 2,
    cy = (b.top + b.bottom) / 2;
  const left = Math.round(Math.min(Math.max(0, cx - w / 2), imageW - w));
  const top = Math.round(Math.min(Math.max(0, cy - h / 2), imageH - h));
  b = { left, top, right: Math.min(imageW, left + Math.round(w)), bottom: Math.min(imageH, top + Math.round(h)) };
  const placement: Placement = { region: b, width: cw, height: ch, left: 0, top: 0 };
  return {
    canvasWidth: cw,
    canvasHeight: ch,
    placements: [placement],
    productBox: { left: 0, top: 0, right: cw, bottom: ch },
  };
}
