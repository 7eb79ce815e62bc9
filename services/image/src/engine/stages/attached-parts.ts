// The product's own thin parts that the model parted from it, put back (ADR 0111): keeping the
// product's components drops a drawstring's end past a hem as a small part of its own when the
// model hesitated where the cord crosses the hem; this module tells such a part from floor specks.
import type { Mask } from '../types.js';
import { type Components, components, dilate, paintComponents, sumPerComponent } from './mask-ops.js';

/**
 * How far (as a share of the mask's long side) a part the model is sure of may lie from the
 * product and still be the product's: a drawstring's end past a hem, parted from the garment by
 * the few pixels where the cord crosses the hem and the model hesitated (about 3 px of a 1024 px
 * mask).
 */
export const ATTACH_GAP = 0.003;

/** A component's principal axis: its centre, unit direction, length and width (as a bar's). */
interface Axis {
  cx: number;
  cy: number;
  ux: number;
  uy: number;
  length: number;
  width: number;
}

/** Each component's principal axis, from its pixels' second moments (a bar of length L has variance L²/12). */
function axes(cc: Components): Axis[] {
  const n = cc.count + 1;
  const sx = new Float64Array(n),
    sy = new Float64Array(n),
    sxx = new Float64Array(n),
    syy = new Float64Array(n),
    sxy = new Float64Array(n);
  for (let y = 0; y < cc.runs.length; y++) {
    const r = cc.runs[y]!,
      l = cc.runLabels[y]!;
    for (let i = 0; i < r.length; i += 2) {
      const k = l[i / 2]!;
      for (let x = r[i]!; x < r[i + 1]!; x++) {
        sx[k]! += x;
        sy[k]! += y;
        sxx[k]! += x * x;
        syy[k]! += y * y;
        sxy[k]! += x * y;
      }
    }
  }
  const out: Axis[] = [];
  for (let k = 0; k < n; k++) {
    const a = cc.areas[k] || 1;
    const cx = sx[k]! / a,
      cy = sy[k]! / a;
    const vxx = sxx[k]! / a - cx * cx,
      vyy = syy[k]! / a - cy * cy,
      vxy = sxy[k]! / a - cx * cy;
    const mid = (vxx + vyy) / 2,
      spread = Math.sqrt(((vxx - vyy) / 2) ** 2 + vxy * vxy);
    const angle = 0.5 * Math.atan2(2 * vxy, vxx - vyy);
    out.push({
      cx,
      cy,
      ux: Math.cos(angle),
      uy: Math.sin(angle),
      length: Math.sqrt(12 * (mid + spread)),
      width: Math.sqrt(12 * Math.max(0, mid - spread)) || 1,
    });
  }
  return out;
}

/** Whether walking on from either end of the axis, up to `reach` pixels, meets a set pixel of `m`. */
function pointsAt(axis: Axis, m: Mask, reach: number): boolean {
  for (const side of [-1, 1])
    for (let t = axis.length / 2; t <= axis.length / 2 + reach; t++) {
      const x = Math.round(axis.cx + side * t * axis.ux),
        y = Math.round(axis.cy + side * t * axis.uy);
      if (x < 0 || y < 0 || x >= m.width || y >= m.height) break;
      if (m.data[y * m.width + x]! > 0) return true;
    }
  return false;
}

/** A dropped part this much longer than wide is a cord, a strap or a chain, if it points at the product. */
const CORD_ELONGATION = 5;
/** How far past its end a cord's line may run to meet the product, as a share of its own length. */
const CORD_REACH = 0.3;
/** A cord's mean probability, at least (the model half sure of floor texture stays well under it). */
const CORD_SURE = 179;

/**
 * Put back, in `kept`, the parts in `dropped` (what keeping the product's components dropped as
 * too small beside the product) that are the product's own: a part within ATTACH_GAP of it that
 * the model was sure of (mean probability at least `sure`, the cleanup's SURE), or a cord: a part at least
 * CORD_ELONGATION times longer than wide that the model was fairly sure of (CORD_SURE) and whose
 * line, carried on past its end by up to CORD_REACH of its length, meets the product. A white
 * drawstring's end past a black top's hem is parted from it where the model hesitated over the
 * cord crossing the hem (18 px of a 1024 px mask in the eval's part scenes). Floor specks the
 * model half believes stay out; so do sure blobs farther away.
 */
export function keepAttachedParts(dropped: Mask, kept: Mask, prob: Mask, sure: number): void {
  const cc = components(dropped);
  const gap = Math.max(1, Math.round(ATTACH_GAP * Math.max(kept.width, kept.height)));
  const near = dilate(kept, gap);
  const probSums = new Float64Array(cc.count + 1),
    touching = new Float64Array(cc.count + 1);
  sumPerComponent(cc, prob, probSums);
  sumPerComponent(cc, near, touching);
  const lines = axes(cc);
  const attached = new Uint8Array(cc.count + 1);
  for (let l = 1; l <= cc.count; l++) {
    const meanProb = probSums[l]! / cc.areas[l]!;
    const axis = lines[l]!;
    const cord =
      axis.length >= CORD_ELONGATION * axis.width &&
      meanProb >= CORD_SURE &&
      pointsAt(axis, near, Math.max(gap, CORD_REACH * axis.length));
    if ((touching[l]! > 0 && meanProb >= sure) || cord) attached[l] = 1;
  }
  paintComponents(cc, attached, kept.data, kept.width, 255);
}
