/**
 * The product's own thin parts for the eval's part scenes (scenes.ts, `makePartScene`): parts the
 * engine must keep while it takes hangers, rails and hands away (issue 33): a bag's carry strap
 * lying in a loop above it, a bag's chain strap of metal links, a hoodie's or a top's drawstrings
 * hanging past its hem, trousers' waist cords laid out above the waistband. The dataset has no
 * photo of these with a mask, so they are drawn onto the clean garment (shaded as round cords,
 * flat straps and metal rings) in its own pixels, before the scene scales and turns it; the truth
 * is the garment's mask and the part's. What counts for "kept" is the part outside the garment's
 * own outline: the part over the garment is product either way.
 *
 * Pure: curves, strokes and links on an RGBA layer, unit-tested (parts.unit.spec.ts).
 */

import type { Layer, Point, ProductBox } from './props.js';

export type PartName = 'strap' | 'chain' | 'drawstrings' | 'waist-cords';

/** The colour a part is drawn in: the garment's own (its median, a shade lighter) or a white cord. */
export type PartColour = 'garment' | 'white';

type Rgb = [number, number, number];
type Curve = [Point, Point, Point, Point];

const boxWidth = (b: ProductBox) => b.right - b.left + 1;
const boxHeight = (b: ProductBox) => b.bottom - b.top + 1;

/** A point of a cubic Bézier curve at t (0..1). */
export function bezier([p0, p1, p2, p3]: Curve, t: number): Point {
  const u = 1 - t;
  const a = u * u * u,
    b = 3 * u * u * t,
    c = 3 * u * t * t,
    d = t * t * t;
  return [a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]];
}

/** Points along the curve about `step` pixels apart (by arc length), each with its unit tangent. */
export function alongCurve(curve: Curve, step: number): { at: Point; tangent: Point }[] {
  const fine: Point[] = [];
  const N = 2000;
  for (let i = 0; i <= N; i++) fine.push(bezier(curve, i / N));
  const out: { at: Point; tangent: Point }[] = [];
  let carried = 0;
  for (let i = 1; i < fine.length; i++) {
    const [x0, y0] = fine[i - 1]!,
      [x1, y1] = fine[i]!;
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len === 0) continue;
    const tangent: Point = [(x1 - x0) / len, (y1 - y0) / len];
    if (out.length === 0) out.push({ at: [x0, y0], tangent });
    let s = step - carried;
    while (s <= len) {
      out.push({ at: [x0 + tangent[0] * s, y0 + tangent[1] * s], tangent });
      s += step;
    }
    carried = len - (s - step);
  }
  return out;
}

/** The garment's median colour (per channel) over its masked pixels. */
export function medianColour(layer: Layer, mask: Uint8Array): Rgb {
  const hist = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
  let n = 0;
  for (let p = 0; p < mask.length; p++)
    if (mask[p]) {
      n++;
      for (let c = 0; c < 3; c++) hist[c]![layer.data[p * 4 + c]!]!++;
    }
  return hist.map((h) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += h[v]!;
      if (seen * 2 >= n) return v;
    }
    return 255;
  }) as Rgb;
}

const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

/**
 * Paints a round cord or a flat strap of half-width `radius` along the curve: discs stamped a
 * quarter radius apart, each pixel shaded by its distance from the curve's centre line (a round
 * cord darkens towards its sides; `flat` keeps 85% at the edge). Returns the pixels painted.
 */
export function strokeCurve(
  layer: Layer,
  curve: Curve,
  radius: number,
  colour: (along: number) => Rgb,
  shape: 'round' | 'flat',
): Uint8Array {
  const { width, height } = layer;
  const nearest = new Float32Array(width * height).fill(Number.POSITIVE_INFINITY);
  const along = new Float32Array(width * height);
  const stamps = alongCurve(curve, Math.max(0.5, radius / 4));
  stamps.forEach(({ at: [cx, cy] }, i) => {
    const share = i / Math.max(1, stamps.length - 1);
    for (let y = Math.max(0, Math.floor(cy - radius)); y <= Math.min(height - 1, Math.ceil(cy + radius)); y++)
      for (let x = Math.max(0, Math.floor(cx - radius)); x <= Math.min(width - 1, Math.ceil(cx + radius)); x++) {
        const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        const p = y * width + x;
        if (d <= radius && d < nearest[p]!) {
          nearest[p] = d;
          along[p] = share;
        }
      }
  });
  const painted = new Uint8Array(width * height);
  for (let p = 0; p < painted.length; p++) {
    const d = nearest[p]!;
    if (!Number.isFinite(d)) continue;
    const edge = Math.min(1, d / radius);
    const shade = shape === 'round' ? 0.62 + 0.38 * Math.cos((edge * Math.PI) / 2) : 1 - 0.15 * edge ** 4;
    const rgb = colour(along[p]!);
    for (let c = 0; c < 3; c++) layer.data[p * 4 + c] = clamp(rgb[c]! * shade);
    layer.data[p * 4 + 3] = 255;
    painted[p] = 255;
  }
  return painted;
}

/**
 * A chain of metal links along the curve, `link` pixels from one link's centre to the next:
 * links face up and edge-on by turns, as a laid chain's do. A face-up link is an oval ring (its
 * hole shows the floor); an edge-on one a short bar across the two rings beside it. Shaded as
 * polished metal: bright where the ring's surface faces the light (upper left), dark across.
 */
export function drawChain(layer: Layer, curve: Curve, link: number, metal: Rgb): Uint8Array {
  const { width, height } = layer;
  const painted = new Uint8Array(width * height);
  const a = 0.62 * link, // a ring's half length along the chain
    b = 0.38 * link, // its half width across
    wall = 0.14 * link; // the wire's thickness
  alongCurve(curve, link).forEach(({ at: [cx, cy], tangent: [tx, ty] }, i) => {
    const faceUp = i % 2 === 0;
    const reach = Math.ceil(a + wall);
    for (let y = Math.max(0, Math.floor(cy - reach)); y <= Math.min(height - 1, Math.ceil(cy + reach)); y++)
      for (let x = Math.max(0, Math.floor(cx - reach)); x <= Math.min(width - 1, Math.ceil(cx + reach)); x++) {
        const rx = x + 0.5 - cx,
          ry = y + 0.5 - cy;
        const u = rx * tx + ry * ty, // along the chain
          v = -rx * ty + ry * tx; // across it
        let light: number;
        if (faceUp) {
          // distance from the ring's centre line, an ellipse of half axes a - wall/2, b - wall/2
          const ea = a - wall / 2,
            eb = b - wall / 2;
          const r = Math.hypot(u / ea, v / eb);
          const off = Math.abs(r - 1) * Math.min(ea, eb);
          if (off > wall / 2) continue;
          const facing = Math.cos(Math.atan2(v, u) + Math.PI / 4); // the light from the upper left
          light = (0.55 + 0.3 * facing) * (0.75 + 0.25 * Math.cos(((off / (wall / 2)) * Math.PI) / 2));
        } else {
          // edge-on: a bar of the wire's thickness, as long as a ring, rounded at its ends
          const half = a - wall / 2;
          const du = Math.max(0, Math.abs(u) - half);
          const off = Math.hypot(du, v);
          if (off > wall / 2) continue;
          light = 0.5 + 0.45 * Math.cos(((off / (wall / 2)) * Math.PI) / 2);
        }
        const p = y * width + x;
        for (let c = 0; c < 3; c++) layer.data[p * 4 + c] = clamp(metal[c]! * light + 40 * light ** 4);
        layer.data[p * 4 + 3] = 255;
        painted[p] = 255;
      }
  });
  return painted;
}

/** How far past the garment's box a part may reach, as a share of its box's larger side: the canvas's margin. */
export const PART_REACH = 0.4;

/** The column's first masked row from the top, near x (the nearest masked column within 5% of the width). */
function topEdgeAt(product: ProductBox, mask: Uint8Array, width: number, x: number): Point {
  const span = Math.ceil(0.05 * boxWidth(product));
  for (let dx = 0; dx <= span; dx++)
    for (const cx of [x - dx, x + dx]) {
      if (cx < product.left || cx > product.right) continue;
      for (let y = product.top; y <= product.bottom; y++) if (mask[y * width + cx]) return [cx, y];
    }
  return [x, product.top];
}

/**
 * Draws the part onto the garment's layer (its pixels, with the margin PART_REACH round the box
 * already there; `mask` is the garment's mask on that layer) and returns the part's pixels.
 */
export function drawPart(
  layer: Layer,
  mask: Uint8Array,
  product: ProductBox,
  part: PartName,
  colourOf: PartColour,
): Uint8Array {
  const bw = boxWidth(product),
    bh = boxHeight(product),
    big = Math.max(bw, bh);
  const cx = (product.left + product.right) / 2;
  const own = medianColour(layer, mask);
  const base: Rgb = colourOf === 'white' ? [236, 234, 228] : (own.map((v) => Math.min(255, v * 1.12 + 12)) as Rgb);
  switch (part) {
    case 'strap': {
      // a carry handle: from a quarter and three quarters across the top, looping above the bag
      const [ax, ay] = topEdgeAt(product, mask, layer.width, Math.round(product.left + 0.3 * bw));
      const [bx, by] = topEdgeAt(product, mask, layer.width, Math.round(product.left + 0.7 * bw));
      const sink = 0.03 * big; // the strap is sewn on a little below the top edge
      const rise = 0.32 * bh;
      const curve: Curve = [
        [ax, ay + sink],
        [ax - 0.08 * bw, ay - rise],
        [bx + 0.08 * bw, by - rise],
        [bx, by + sink],
      ];
      const strapColour = own.map((v) => v * 0.8) as Rgb;
      return strokeCurve(layer, curve, 0.022 * big, () => strapColour, 'flat');
    }
    case 'chain': {
      // a chain strap: from the top's left and right corners, in a wide arc above the bag
      const [ax, ay] = topEdgeAt(product, mask, layer.width, Math.round(product.left + 0.2 * bw));
      const [bx, by] = topEdgeAt(product, mask, layer.width, Math.round(product.left + 0.8 * bw));
      const rise = 0.36 * bh;
      const curve: Curve = [
        [ax, ay + 0.02 * big],
        [ax - 0.1 * bw, ay - rise],
        [bx + 0.1 * bw, by - rise],
        [bx, by + 0.02 * big],
      ];
      return drawChain(layer, curve, 0.035 * big, [214, 178, 88]);
    }
    case 'drawstrings':
    case 'waist-cords': {
      // two cords from either side of the middle: a top's hang from its neckline past its hem,
      // the trousers' are laid out above the waistband; each ends in a dark aglet
      const down = part === 'drawstrings';
      const painted = new Uint8Array(layer.width * layer.height);
      for (const side of [-1, 1]) {
        const sx = cx + side * 0.06 * bw;
        const sy = down ? product.top + 0.2 * bh : product.top + 0.04 * bh;
        const curve: Curve = down
          ? [
              [sx, sy],
              [sx + side * 0.01 * bw, sy + 0.45 * bh],
              [sx + side * 0.06 * bw, product.bottom],
              [sx + side * 0.12 * bw, product.bottom + 0.2 * bh],
            ]
          : [
              [sx, sy],
              [sx + side * 0.04 * bw, sy - 0.08 * bh],
              [sx + side * 0.16 * bw, product.top - 0.1 * bh],
              [sx + side * 0.3 * bw, product.top - 0.14 * bh],
            ];
        const aglet = 0.9; // the last tenth of the cord
        const cord = strokeCurve(layer, curve, 0.008 * big, (along) => (along >= aglet ? [62, 60, 58] : base), 'round');
        for (let p = 0; p < painted.length; p++) painted[p] ||= cord[p]!;
      }
      return painted;
    }
  }
}
