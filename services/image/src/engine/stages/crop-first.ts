import sharp from 'sharp';
import type { SegmentationModel } from '../model/session.js';
import type { Box, Mask, RawImage } from '../types.js';
import { keepProductComponents } from './mask-cleanup.js';
import { boundingBox, threshold } from './mask-ops.js';
import { maskSize, probabilityPlane, segment } from './segment.js';

/**
 * Crop first: most casual photos show the product in part of the frame, so a cheap first pass at
 * a small side finds the product's box and the full pass runs on that box (with a margin), where
 * the model spends its pixels on the product instead of the floor around it.
 *
 * Off by default (ENGINE_CROP_FIRST=1 turns it on): on the eval the casual phone photos are framed
 * on the product (the window would cover 92% of the frame at the median), so it only added the
 * first pass, and on the synthetic scenes, where the product covers 18-59% of the frame, the model
 * did slightly worse with less of the floor around the product to tell it apart from
 * (docs/benchmarks.md, "Crop first").
 */

/** Side of the first pass: ISNet's smallest size; about a sixth of a 640 px pass's time. */
export const FIRST_PASS_SIZE = 256;

export interface WindowOptions {
  /** Margin added on every side, as a share of the box's longer side. */
  margin?: number;
  /** Above this share of the frame's area the crop gains too little to be worth it. */
  maxShare?: number;
}

/**
 * The window the full pass should run on, in image coordinates: the box of the first pass's
 * product (its components as the cleanup keeps them) with a margin, or null when there is no
 * product or the window would cover most of the frame anyway. Pure.
 */
export function productWindow(
  firstPass: Mask,
  imageWidth: number,
  imageHeight: number,
  { margin = 0.15, maxShare = 0.6 }: WindowOptions = {},
): Box | null {
  // generous on purpose: at this size a pale product on a pale floor is often only half sure,
  // and a window that cuts the product costs a second full pass (see cutsProduct)
  const kept = keepProductComponents(threshold(firstPass, 64), 0.02);
  const b = kept && boundingBox(kept.mask);
  if (!b) return null;
  const sx = imageWidth / firstPass.width,
    sy = imageHeight / firstPass.height;
  // a first-pass pixel is several image pixels: widen by one of them besides the margin
  const pad = margin * Math.max((b.right - b.left) * sx, (b.bottom - b.top) * sy) + Math.max(sx, sy);
  const window: Box = {
    left: Math.max(0, Math.floor(b.left * sx - pad)),
    top: Math.max(0, Math.floor(b.top * sy - pad)),
    right: Math.min(imageWidth, Math.ceil(b.right * sx + pad)),
    bottom: Math.min(imageHeight, Math.ceil(b.bottom * sy + pad)),
  };
  const share = ((window.right - window.left) * (window.bottom - window.top)) / (imageWidth * imageHeight);
  return share > maxShare ? null : window;
}

/** The first pass: the whole frame squashed to FIRST_PASS_SIZE, as the model's probability mask. */
async function firstPass(image: RawImage, model: SegmentationModel): Promise<Mask> {
  const s = model.inputSize;
  const squashed = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .resize(s, s, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer();
  const data = await probabilityPlane(squashed, model);
  return { data, width: s, height: s };
}

/**
 * The product's probability mask over the whole frame (as segment() gives it: the image's aspect,
 * long side MASK_LONG_SIDE at most), made by a full pass on the product's window when the first
 * pass finds one, else by segment() on the whole frame. `window` is the box the full pass ran on.
 */
export async function segmentCropFirst(
  image: RawImage,
  model: SegmentationModel,
): Promise<{ mask: Mask; window: Box | null }> {
  const small = model.atSize?.(FIRST_PASS_SIZE);
  const window = small ? productWindow(await firstPass(image, small), image.width, image.height) : null;
  if (!window) return { mask: await segment(image, model), window: null };
  const w = window.right - window.left,
    h = window.bottom - window.top;
  const crop = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .extract({ left: window.left, top: window.top, width: w, height: h })
    .raw()
    .toBuffer();
  const part = await segment({ data: crop, width: w, height: h, channels: image.channels }, model);
  // the first pass saw only part of the product (a white shirt's print on a white carpet): the
  // whole frame, as without crop-first, rather than a product cut at the window's edge
  if (cutsProduct(part, window, image.width, image.height)) return { mask: await segment(image, model), window: null };
  return { mask: await pasteIntoFrame(part, window, image.width, image.height), window };
}

/**
 * Whether the full pass's mask of the window reaches one of the window's sides that lies inside
 * the frame, that is, the product goes on past the window. Pure.
 */
export function cutsProduct(part: Mask, window: Box, imageWidth: number, imageHeight: number): boolean {
  const { data, width: w, height: h } = part;
  const sure = (x: number, y: number) => data[y * w + x]! >= 128;
  const row = (y: number) => Array.from({ length: w }, (_, x) => x).some((x) => sure(x, y));
  const column = (x: number) => Array.from({ length: h }, (_, y) => y).some((y) => sure(x, y));
  return (
    (window.top > 0 && row(0)) ||
    (window.bottom < imageHeight && row(h - 1)) ||
    (window.left > 0 && column(0)) ||
    (window.right < imageWidth && column(w - 1))
  );
}

/** The window's mask placed on an empty mask of the whole frame, at segment()'s resolution. */
async function pasteIntoFrame(part: Mask, window: Box, imageWidth: number, imageHeight: number): Promise<Mask> {
  const { scale, width, height } = maskSize(imageWidth, imageHeight);
  const left = Math.min(width - 1, Math.round(window.left * scale)),
    top = Math.min(height - 1, Math.round(window.top * scale));
  const pw = Math.max(1, Math.min(width - left, Math.round((window.right - window.left) * scale))),
    ph = Math.max(1, Math.min(height - top, Math.round((window.bottom - window.top) * scale)));
  const placed = await sharp(part.data, { raw: { width: part.width, height: part.height, channels: 1 } })
    .resize(pw, ph, { fit: 'fill', kernel: 'linear' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const data = new Uint8Array(width * height);
  for (let y = 0; y < ph; y++) data.set(placed.subarray(y * pw, (y + 1) * pw), (top + y) * width + left);
  return { data, width, height };
}
