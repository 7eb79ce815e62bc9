import type { CheckResult } from '../presets/preset.js';
import type { Mask } from '../types.js';

/**
 * A product that runs into the photo's edge was cut by the frame (a sleeve off the side, a strap
 * below the bottom): the cut-out shows a straight edge where the photo ended, and nothing the
 * engine does brings the missing part back. It can only say so. Pure: a mask in, the sides out.
 */

export type FrameSide = 'top' | 'bottom' | 'left' | 'right';

/**
 * Share of a side the product must cover to count as cut there: 1% of the side (10 px of a 1024 px
 * mask), so a stray speck of the edge's pixels does not count, a sleeve's cuff does.
 */
export const MIN_CONTACT_SHARE = 0.01;

/** Share of each side of the frame that the product covers (its outermost row or column). */
export function frameContact(m: Mask): Record<FrameSide, number> {
  const { width: w, height: h, data } = m;
  let top = 0,
    bottom = 0,
    left = 0,
    right = 0;
  for (let x = 0; x < w; x++) {
    if (data[x]! >= 128) top++;
    if (data[(h - 1) * w + x]! >= 128) bottom++;
  }
  for (let y = 0; y < h; y++) {
    if (data[y * w]! >= 128) left++;
    if (data[y * w + w - 1]! >= 128) right++;
  }
  return { top: top / w, bottom: bottom / w, left: left / h, right: right / h };
}

/** The sides of the frame that cut the product. */
export function sidesCut(contact: Record<FrameSide, number>): FrameSide[] {
  return (['top', 'bottom', 'left', 'right'] as const).filter((s) => contact[s] >= MIN_CONTACT_SHARE);
}

export const FRAME_RULE = 'product inside the frame';

export function frameCheck(m: Mask): CheckResult {
  const contact = frameContact(m);
  const cut = sidesCut(contact);
  if (cut.length === 0)
    return { rule: FRAME_RULE, pass: true, detail: 'the product does not touch the edge of the photo' };
  const where = cut.map((s) => `${s} ${Math.round(contact[s] * 100)}%`).join(', ');
  return {
    rule: FRAME_RULE,
    pass: false,
    detail: `the product runs into the edge of the photo (${where} of that side) and may be cut off there`,
  };
}
