import type { Box, Mask } from '../types.js';
import type { Components } from './mask-ops.js';
import { keepAttachedParts } from './attached-parts.js';
import {
  and,
  boundingBox,
  components,
  dilate,
  emptyMask,
  erode,
  paintComponents,
  sumPerComponent,
  threshold,
  without,
} from './mask-ops.js';

export interface CleanupOptions {
  /** Remove thin structures sticking out above the product: hanger hooks, and clips too. */
  removeHanger: false | 'hooks' | 'hooks-and-clips';
  /** Drop broad regions the model was unsure of that lie away from what it was sure of. */
  trimUnsure?: boolean;
  /** Keep components at least this share of the largest one (both shoes of a pair). */
  keepRatio?: number;
  /**
   * The photo at the mask's size, packed RGB: where given, a hand or arm coming into the photo
   * over the product is taken out (`removeHands`).
   */
  photo?: Uint8Array;
}

export interface CleanMask {
  /** Soft alpha 0..255, feathered, no halo. */
  alpha: Mask;
  /** Binary product mask after cleanup. */
  binary: Mask;
  /** Number of product components kept. */
  parts: number;
}

/** Keep the product's components, drop specks. Returns null when nothing is left. */
export function keepProductComponents(bin: Mask, keepRatio = 0.08): { mask: Mask; parts: number } | null {
  const cc = components(bin);
  let largest = 0;
  for (let i = 1; i <= cc.count; i++) largest = Math.max(largest, cc.areas[i]!);
  const minArea = Math.max(keepRatio * largest, 0.0005 * bin.data.length);
  if (largest < 0.001 * bin.data.length) return null;
  const keep = new Uint8Array(cc.count + 1);
  let parts = 0;
  for (let i = 1; i <= cc.count; i++)
    if (cc.areas[i]! >= minArea) {
      keep[i] = 1;
      parts++;
    }
  const out = emptyMask(bin.width, bin.height);
  paintComponents(cc, keep, out.data, out.width, 255);
  return { mask: out, parts };
}

/**
 * Fill enclosed background regions: small ones always (misread prints, reflections), larger ones
 * only when the model itself leaned towards "product" there (mean probability above 0.25).
 */
export function fillHoles(bin: Mask, prob?: Mask): Mask {
  const cc = components(bin, { invert: true });
  // the components cover every unset pixel, so the object is the rest
  let objectArea = bin.data.length;
  for (let i = 1; i <= cc.count; i++) objectArea -= cc.areas[i]!;
  const sums = new Float64Array(cc.count + 1);
  if (prob) sumPerComponent(cc, prob, sums);
  const fill = new Uint8Array(cc.count + 1);
  for (let i = 1; i <= cc.count; i++) {
    if (cc.touchesBorder[i]) continue;
    const meanProb = prob ? sums[i]! / cc.areas[i]! / 255 : 0;
    if (cc.areas[i]! < 0.02 * objectArea || meanProb > 0.25) fill[i] = 1;
  }
  const out = { data: bin.data.slice(), width: bin.width, height: bin.height };
  paintComponents(cc, fill, out.data, out.width, 255);
  return out;
}

/**
 * Remove hanger hooks and clips: thin parts (narrower than 2r) that an opening removes and that
 * rise above the garment's body. Corners rounded off by the opening are too short to count.
 */
export function removeHangerHooks(input: Mask, clipsToo = false): Mask {
  const cc0 = components(input);
  let box = null as null | { w: number; h: number };
  for (let i = 1; i <= cc0.count; i++) {
    const b = cc0.boxes[i]!;
    const w = b.right - b.left,
      h = b.bottom - b.top;
    if (!box || w * h > box.w * box.h) box = { w, h };
  }
  if (!box) return input;
  const bin = withoutRails(input, cc0);
  const r = Math.max(2, Math.round(HOOK_OPENING * Math.max(box.w, box.h)));
  const opened = dilate(erode(bin, r), r);
  const body = boundingBox(opened);
  const bodyTop = body?.top ?? bin.height;
  // hooks hang from the middle (and a clip hanger's bar crosses it); straps sit off-centre
  const bodyLeft = body?.left ?? bin.width,
    bodyRight = body ? body.right - 1 : -1;
  const centre = (bodyLeft + bodyRight) / 2,
    halfBand = 0.15 * (bodyRight - bodyLeft);
  const removed = emptyMask(bin.width, bin.height);
  const band = Math.min(bin.height, bodyTop + 2 * r) * bin.width;
  for (let p = 0; p < band; p++) if (bin.data[p]! > 0 && opened.data[p] === 0) removed.data[p] = 255;
  const cc = components(removed);
  const onBody = restingOnBody(cc, opened);
  const hook = new Uint8Array(cc.count + 1);
  let hanger = false;
  for (let l = 1; l <= cc.count; l++) {
    const b = cc.boxes[l]!;
    // a hook, clip or bar: a thin piece rising above the body (rounded-off corners do not)
    const overMiddle = b.left <= centre + halfBand && b.right >= centre - halfBand;
    if (b.top < bodyTop - r / 2 && (overMiddle || clipsToo) && !isCornerTip(b, onBody[l]!)) {
      hook[l] = 1;
      hanger = true;
    }
  }
  const out = { data: bin.data.slice(), width: bin.width, height: bin.height };
  paintComponents(cc, hook, out.data, out.width, 0);
  trimNarrowTop(out, hanger);
  return keepProductComponents(out)?.mask ?? bin;
}

/**
 * Skin, by its chroma (YCbCr, the usual bounds for skin under daylight and indoor light, with
 * some room for a cast): red over green over blue, green at least 45% of red, Cr 135-180,
 * Cb 85-135, not dark.
 */
export function isSkin(r: number, g: number, b: number): boolean {
  // green at least 45% of red: a red product in shadow has skin's chroma bounds but not its hue
  if (r <= g || g < b * 0.9 || g < 0.45 * r) return false;
  const y = 0.299 * r + 0.587 * g + 0.114 * b;
  if (y < 60) return false;
  const cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
  const cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
  return cr >= 135 && cr <= 180 && cb >= 85 && cb <= 135;
}

/**
 * The mask less a hand or arm that holds the product: skin-coloured parts of the mask that run
 * into the photo's edge (a hand comes into the photo from outside it; the product lies inside)
 * and are a minor part of the mask (at most MAX_HAND_SHARE of it: a skin-toned product is most of
 * its own mask), with a rim of HAND_RIM pixels (the hand's edge is mixed with what it touches).
 * The model takes a hand holding a product for part of it; the eval's prop scenes kept a hand on a
 * bag whole. What is left of the product, if the hand split it, is sorted by the component step.
 */
export function removeHands(bin: Mask, photo: Uint8Array): Mask {
  const { width: w, height: h } = bin;
  const skin = emptyMask(w, h);
  let area = 0;
  for (let p = 0; p < w * h; p++) {
    if (!bin.data[p]) continue;
    area++;
    if (isSkin(photo[p * 3]!, photo[p * 3 + 1]!, photo[p * 3 + 2]!)) skin.data[p] = 255;
  }
  const cc = components(skin);
  const hand = new Uint8Array(cc.count + 1);
  let any = false;
  for (let i = 1; i <= cc.count; i++)
    if (cc.touchesBorder[i] && cc.areas[i]! >= MIN_HAND_SHARE * w * h && cc.areas[i]! <= MAX_HAND_SHARE * area) {
      hand[i] = 1;
      any = true;
    }
  if (!any) return bin;
  const found = emptyMask(w, h);
  paintComponents(cc, hand, found.data, w, 255);
  const rim = dilate(found, HAND_RIM);
  const out = { data: bin.data.slice(), width: w, height: h };
  for (let p = 0; p < w * h; p++) if (rim.data[p]) out.data[p] = 0;
  return out;
}

/** A hand is at least this share of the photo (a speck of skin colour at the edge is not). */
const MIN_HAND_SHARE = 0.002;
/** A hand is at most this share of the mask: more, and the skin colour is the product's own. */
const MAX_HAND_SHARE = 0.35;
/** Pixels taken around a hand as well (its edge, mixed with the product or the floor). */
const HAND_RIM = 1;

/**
 * The mask less any clothes rail or rack: a part of its own (the hook that hangs the garment from
 * it is thin, and the model's mask often breaks there) that runs into the photo's edge and is
 * either a bar (at the photo's left or right side, its box at most a third as tall as wide, its
 * mean thickness at most 8% of the garment's size, lying above the garment: its lowest row within
 * the garment's top fifth) or a sparse frame (a rack's posts and base: at most SPARSE of its box,
 * and smaller than the garment). The eval's prop scenes kept a rail behind a top whole (wider
 * than the garment, it also survived the hook rule's opening, whose size is taken from the
 * garment), and the casual photo of joggers on a rack kept its posts and base. The hook is left
 * to the hook rule. The garment is the largest part.
 */
function withoutRails(bin: Mask, cc: Components): Mask {
  let main = 0;
  for (let i = 1; i <= cc.count; i++) if (!main || cc.areas[i]! > cc.areas[main]!) main = i;
  const g = cc.boxes[main]!;
  const size = Math.max(g.right - g.left, g.bottom - g.top);
  const rail = new Uint8Array(cc.count + 1);
  let any = false;
  for (let i = 1; i <= cc.count; i++) {
    if (i === main || !cc.touchesBorder[i]) continue;
    const b = cc.boxes[i]!;
    const width = b.right - b.left,
      height = b.bottom - b.top;
    const atSide = b.left === 0 || b.right === bin.width;
    const bar =
      atSide &&
      height * 3 <= width &&
      cc.areas[i]! / width <= 0.08 * size &&
      b.bottom <= g.top + 0.2 * (g.bottom - g.top);
    // a frame round the product (a rack's posts and base): sparse in its box, smaller than the garment
    const frame = cc.areas[i]! <= SPARSE * width * height && cc.areas[i]! < cc.areas[main]!;
    if (!bar && !frame) continue;
    rail[i] = 1;
    any = true;
  }
  if (!any) return bin;
  const out = { data: bin.data.slice(), width: bin.width, height: bin.height };
  paintComponents(cc, rail, out.data, out.width, 0);
  return out;
}

/** The hook rule's opening radius, as a share of the garment's larger side. */
const HOOK_OPENING = 0.03;
/** A rack or a rail's frame covers at most this share of its box (a garment's part, half or more). */
const SPARSE = 0.2;

/**
 * How many pixels of each piece have the opened body right below them: about one per column where
 * the piece rests on the body. The opened mask read one row down (its last row has nothing below).
 */
function restingOnBody(cc: Components, opened: Mask): Float64Array {
  const w = opened.width;
  const below = { data: opened.data.subarray(w), width: w, height: opened.height - 1 };
  const count = new Float64Array(cc.count + 1);
  sumPerComponent(cc, below, count, Math.min(cc.runs.length, opened.height - 1));
  for (let l = 1; l <= cc.count; l++) count[l] = count[l]! / 255;
  return count;
}

/**
 * The tip of a garment's corner that the opening rounded off: flat (twice as wide as tall or more)
 * and resting on the body along most of its width. A garment lying turned has its top corner
 * rise above the rest of its body, and the clips rule took such a tip of a waistband for a clip
 * (bottom_01 on draws 1 and 2 of the eval lost a sliver of its waistband). A clip or a hook stands
 * on the body by a narrow foot, taller than wide; a hanger's bar rests on clips, not on the body.
 */
function isCornerTip(b: Box, resting: number): boolean {
  const width = b.right - b.left,
    height = b.bottom - b.top;
  return height * 2 <= width && resting >= 0.75 * width;
}

/**
 * A hanger's hook and neck stand above the garment as rows far narrower than the garment:
 * clear top rows narrower than NARROW_SHARE of the widest row when the garment widens again within
 * the top fifth: after a hook was found (`hanger`), always; else only where it widens at once (a
 * step of HOOK_STEP, not a ramp). A part that stays that narrow
 * through the whole top fifth is the garment's own (a hoodie's hood, a high collar): a hook is
 * short beside the garment it holds.
 */
export function trimNarrowTop(m: Mask, hanger = false): void {
  const extents: number[] = [];
  let top = -1,
    bottom = -1,
    widest = 0;
  const { width: w, data } = m;
  for (let y = 0; y < m.height; y++) {
    // the row's first and last set pixel, read from its ends inwards
    const row = y * w;
    let l = 0;
    while (l < w && data[row + l] === 0) l++;
    let r = w - 1;
    while (r > l && data[row + r] === 0) r--;
    const e = l === w ? 0 : r - l + 1;
    extents.push(e);
    if (e > 0) {
      if (top < 0) top = y;
      bottom = y;
    }
    widest = Math.max(widest, e);
  }
  if (top < 0) return;
  const limit = top + 0.2 * (bottom - top);
  let end = top;
  while (end < limit && extents[end]! < NARROW_SHARE * widest) end++;
  if (end >= limit || end === top) return;
  // Where a hook was found above the garment, the narrow rows are the hanger's neck and arms,
  // sloped like shoulders. Without one, the garment lies flat, and narrow top rows are its own
  // corner (a garment turned a little) or collar, which widen gradually: cutting them cost most
  // tops and bottoms of the eval's scenes 0.005-0.02 IoU (docs/benchmarks.md, issue 33); only a
  // step, a neck the garment widens from at once (twice as wide), is taken for a missed hook.
  let hookWidth = 0;
  for (let y = top; y < end; y++) hookWidth = Math.max(hookWidth, extents[y]!);
  if (!hanger && extents[end]! < HOOK_STEP * hookWidth) return;
  m.data.fill(0, top * m.width, end * m.width);
}

/** Top rows narrower than this share of the garment's widest row may be a hanger's hook and neck. */
const NARROW_SHARE = 0.3;
/** How much wider the row below a missed hook is than the hook itself, at least. */
const HOOK_STEP = 2;

/**
 * Soft alpha from the model's probabilities inside the cleaned shape: interior opaque, edge
 * following the model's own soft edge, pulled in a little so no background fringe (halo) shows.
 */
export function featherAlpha(prob: Mask, bin: Mask): Mask {
  const interior = erode(bin, 1);
  const edgeZone = dilate(bin, 1);
  const out = emptyMask(bin.width, bin.height);
  for (let p = 0; p < out.data.length; p++) {
    if (interior.data[p]! > 0) out.data[p] = 255;
    else if (edgeZone.data[p]! > 0) {
      const a = bin.data[p]! > 0 ? Math.max(prob.data[p]!, 128) : prob.data[p]!;
      out.data[p] = Math.max(0, Math.min(255, Math.round(((a - 64) * 255) / 160)));
    }
  }
  return out;
}

/** Probability (0..255) above which the model is taken to be sure a pixel is product. */
export const SURE = 217;

/**
 * A garment on a bed or a blanket: the model is sure of the garment (probability near 1) but half
 * sure of folds of the bedding that touch it, which pass the 0.5 threshold as a grey apron around
 * the product. Keep unsure pixels only within a narrow band of sure ones (0.4% of the long side,
 * about 4 px of a 1024 px mask): the product's own soft edge lies in that band, a broad unsure
 * region does not. When the sure part is under 70% of the whole the model is unsure of the product
 * itself (white on white, sheer fabric), and the mask is left as it is rather than cut down.
 */
export function trimUnsureRegions(prob: Mask, bin: Mask): Mask {
  // the sure pixels and both areas in one pass
  const sure = emptyMask(prob.width, prob.height);
  let sureArea = 0,
    all = 0;
  for (let i = 0; i < prob.data.length; i++) {
    if (prob.data[i]! >= SURE) {
      sure.data[i] = 255;
      sureArea++;
    }
    if (bin.data[i]! > 0) all++;
  }
  if (all === 0 || sureArea < 0.7 * all) return bin;
  const band = dilate(sure, Math.max(2, Math.round(0.004 * Math.max(prob.width, prob.height))));
  const kept = and(bin, band);
  keepEnclosedParts(bin, kept);
  return kept;
}

/**
 * A cut-off part is the product's own when more than this share of its outline borders the
 * product: a jacket's dark lining between its fronts is half sure too, but the product surrounds
 * it on three sides (0.58 on the eval's blazer), where bedding or floor beside a garment borders
 * it along one and the background along the rest (0.39 and less on the casual photos).
 */
export const ENCLOSED_SHARE = 0.5;

/** Put back, in `kept`, each part of `bin` it lost that the kept product mostly encloses. */
function keepEnclosedParts(bin: Mask, kept: Mask): void {
  const { width: w, height: h } = bin;
  const lost = without(bin, kept);
  if (!lost) return;
  const cc = components(lost);
  const byProduct = new Float64Array(cc.count + 1),
    byOutside = new Float64Array(cc.count + 1);
  // The lost parts' pixels, run by run. A 4-neighbour that is lost too belongs to the same part
  // (parts are 4-connected), so the lost mask tells it apart without a label per pixel.
  const lostData = lost.data,
    keptData = kept.data;
  for (let y = 0; y < h; y++) {
    const runs = cc.runs[y]!,
      runLabels = cc.runLabels[y]!;
    for (let i = 0; i < runs.length; i += 2) {
      const l = runLabels[i / 2]!;
      for (let x = runs[i]!, end = runs[i + 1]!; x < end; x++) {
        const p = y * w + x;
        // the photo's edge counts as outside: a part running off the frame is not enclosed
        if (x > 0) countNeighbour(lostData, keptData, p - 1, l, byProduct, byOutside);
        else byOutside[l]!++;
        if (x < w - 1) countNeighbour(lostData, keptData, p + 1, l, byProduct, byOutside);
        else byOutside[l]!++;
        if (y > 0) countNeighbour(lostData, keptData, p - w, l, byProduct, byOutside);
        else byOutside[l]!++;
        if (y < h - 1) countNeighbour(lostData, keptData, p + w, l, byProduct, byOutside);
        else byOutside[l]!++;
      }
    }
  }
  const enclosed = new Uint8Array(cc.count + 1);
  for (let l = 1; l <= cc.count; l++) {
    const share = byProduct[l]! / (byProduct[l]! + byOutside[l]! || 1);
    if (share > ENCLOSED_SHARE) enclosed[l] = 1;
  }
  paintComponents(cc, enclosed, kept.data, w, 255);
}

/** A lost part's pixel's neighbour q: another of its pixels, the kept product, or outside. */
function countNeighbour(
  lost: Uint8Array,
  kept: Uint8Array,
  q: number,
  label: number,
  byProduct: Float64Array,
  byOutside: Float64Array,
): void {
  if (lost[q] !== 0) return;
  if (kept[q]! > 0) byProduct[label]!++;
  else byOutside[label]!++;
}

/**
 * The product's mask from the model's probabilities, step by step; `onStep` (diagnosis:
 * tools/eval/mask-stages.ts) sees the mask after each step.
 */
export function cleanMask(
  prob: Mask,
  options: CleanupOptions,
  onStep: (step: CleanupStep, bin: Mask) => void = () => {},
): CleanMask | null {
  let bin = threshold(prob, 128);
  if (options.trimUnsure) bin = trimUnsureRegions(prob, bin);
  onStep('unsure trimmed', bin);
  if (options.photo) bin = removeHands(bin, options.photo);
  onStep('hands removed', bin);
  const kept = keepProductComponents(bin, options.keepRatio);
  if (!kept) return null;
  // the small parts it dropped: the ones that turn out to touch the finished product come back
  const dropped = without(bin, kept.mask);
  bin = kept.mask;
  onStep('components kept', bin);
  if (options.removeHanger) bin = removeHangerHooks(bin, options.removeHanger === 'hooks-and-clips');
  onStep('hangers removed', bin);
  bin = fillHoles(bin, prob);
  onStep('holes filled', bin);
  const again = keepProductComponents(bin, options.keepRatio);
  if (!again) return null;
  if (dropped) keepAttachedParts(dropped, again.mask, prob, SURE);
  onStep('attached parts kept', again.mask);
  return { alpha: featherAlpha(prob, again.mask), binary: again.mask, parts: again.parts };
}

/** cleanMask's steps, in the order it takes them (what `onStep` names). */
export const CLEANUP_STEPS = [
  'unsure trimmed',
  'hands removed',
  'components kept',
  'hangers removed',
  'holes filled',
  'attached parts kept',
] as const;

export type CleanupStep = (typeof CLEANUP_STEPS)[number];
