// The product's own thin parts that the model parted from it, put back (ADR 0111): keeping the
// product's components drops a drawstring's end past a hem as a small part of its own when the
// model hesitated where the cord crosses the hem; this module tells such a part from floor specks.
import type { Mask } from '../types.js';
import { type Components, components, dilate, momentsOfRuns, paintComponents, sumPerComponent } from './mask-ops.js';

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

/** One component's principal axis, from its pixels' second moments (a bar of length L has variance L²/12 along it). */
function axisOf(cc: Components, label: number, width: number, height: number): Axis {
  // the component's own row runs, for the mask's moments
  const rows = cc.runs.map((r, y) => {
    const labels = cc.runLabels[y]!;
    const own: number[] = [];
    for (let i = 0; i < r.length; i += 2) if (labels[i / 2] === label) own.push(r[i]!, r[i + 1]!);
    return Int32Array.from(own);
  });
  const m = momentsOfRuns(rows, width, height);
  const angle = (m.axisDeg * Math.PI) / 180;
  return {
    cx: m.cx,
    cy: m.cy,
    ux: Math.cos(angle),
    uy: Math.sin(angle),
    length: Math.sqrt(12 * m.major),
    width: Math.sqrt(12 * m.minor) || 1,
  };
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
 * the model was sure of (mean probability at least `sure`, the cleanup's SURE), or a cord: a part
 * at least CORD_ELONGATION times longer than wide that the model was fairly sure of (CORD_SURE)
 * and whose line, carried on past its end by up to CORD_REACH of its length, meets the product. A white
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
  const attached = new Uint8Array(cc.count + 1);
  for (let l = 1; l <= cc.count; l++) {
    const meanProb = probSums[l]! / cc.areas[l]!;
    if (touching[l]! > 0 && meanProb >= sure) attached[l] = 1;
    else if (meanProb >= CORD_SURE) {
      // the axis only for the parts the model was fairly sure of: a floor's specks are many
      const axis = axisOf(cc, l, kept.width, kept.height);
      const cord =
        axis.length >= CORD_ELONGATION * axis.width && pointsAt(axis, near, Math.max(gap, CORD_REACH * axis.length));
      if (cord) attached[l] = 1;
    }
  }
  paintComponents(cc, attached, kept.data, kept.width, 255);
}
