import sharp from 'sharp';
import { type InputEncoding, ISNET_INPUT } from '../model/manifest.js';
import type { SegmentationModel } from '../model/session.js';
import type { Mask, RawImage } from '../types.js';
import { refineEdges } from './refine-edges.js';

/** Long side of the mask the cleanup and geometry stages work on. */
export const MASK_LONG_SIDE = 1024;

/**
 * Packed RGB to the model's planar input, normalised as its manifest says (model/manifest.ts); by
 * default ISNet's: (value - 128) / 256, planar RGB.
 */
export function toModelInput(rgb: Buffer, size: number, encoding: InputEncoding = ISNET_INPUT): Float32Array {
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  const [s0, s1, s2] = encoding.sources;
  const [t0, t1, t2] = encoding.tables;
  for (let i = 0, j = 0; j < plane; i += 3, j++) {
    out[j] = t0[rgb[i + s0]!]!;
    out[j + plane] = t1[rgb[i + s1]!]!;
    out[j + 2 * plane] = t2[rgb[i + s2]!]!;
  }
  return out;
}

/**
 * Luminance (Rec. 601 weights on the 8-bit values, in 1/256ths, rounded) of packed RGB or RGBA
 * pixels: the guide for edge refinement.
 */
export function luminance(rgb: Uint8Array, channels: number): Uint8Array {
  const out = new Uint8Array(rgb.length / channels);
  for (let p = 0, k = 0; p < out.length; p++, k += channels)
    out[p] = (77 * rgb[k]! + 150 * rgb[k + 1]! + 29 * rgb[k + 2]! + 128) >> 8;
  return out;
}

const raw = (data: Buffer, width: number, height: number, channels: number) =>
  sharp(data, { raw: { width, height, channels: channels as 1 | 3 | 4 } });

/** The size of an image's mask: the image's aspect, long side MASK_LONG_SIDE (or the image's own when smaller). */
export function maskSize(imageWidth: number, imageHeight: number): { scale: number; width: number; height: number } {
  const scale = Math.min(1, MASK_LONG_SIDE / Math.max(imageWidth, imageHeight));
  return {
    scale,
    width: Math.max(1, Math.round(imageWidth * scale)),
    height: Math.max(1, Math.round(imageHeight * scale)),
  };
}

/** The model's answer for a photo squashed to its square input (RGB), as probabilities 0..255. */
export async function probabilityPlane(squashed: Buffer, model: SegmentationModel): Promise<Buffer> {
  const s = model.inputSize;
  const probs = await model.run(toModelInput(squashed, s, model.encoding));
  const plane = Buffer.alloc(s * s);
  for (let i = 0; i < plane.length; i++) plane[i] = Math.max(0, Math.min(255, Math.round(probs[i]! * 255)));
  return plane;
}

/**
 * The product's probability mask (0..255) at the working image's aspect ratio, long side
 * MASK_LONG_SIDE (or the image's own size when smaller). When the model ran at a smaller size
 * than the mask (inference at 576 px), the upsampled mask's edges are refined against the photo
 * at the mask's resolution (refine-edges.ts), so a smaller inference costs little edge quality.
 */
export async function segment(image: RawImage, model: SegmentationModel): Promise<Segmentation> {
  const s = model.inputSize;
  const { width, height } = maskSize(image.width, image.height);
  const upsampling = Math.max(width, height) / s;
  const photo = raw(image.data, image.width, image.height, image.channels);
  let squashed: Buffer;
  let luma: Uint8Array | undefined;
  let small: Uint8Array;
  if (upsampling <= 1) {
    const pending = photo.resize(s, s, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    // the photo at the mask's size too, for the cleanup's colour rules (a GPU's inference at 1024)
    small =
      width === image.width && height === image.height && image.channels === 3
        ? image.data
        : await raw(image.data, image.width, image.height, image.channels)
            .resize(width, height, { fit: 'fill' })
            .removeAlpha()
            .raw()
            .toBuffer();
    squashed = await pending;
  } else {
    // The working photo (2560 px) is read once, down to the mask's size; the model's square and the
    // luminance the edges are refined against both come from that copy, which is 6x smaller.
    const copy = await photo.resize(width, height, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    small = copy;
    const pending = raw(copy, width, height, 3).resize(s, s, { fit: 'fill' }).raw().toBuffer();
    luma = luminance(copy, 3); // while libvips squashes the model's input on its own thread
    squashed = await pending;
  }
  const plane = await probabilityPlane(squashed, model);
  const data = await raw(plane, s, s, 1)
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const mask = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height };
  if (!luma) return { ...mask, photo: small };
  return { ...refineEdges(mask, luma, { radius: Math.max(2, Math.round(2 * upsampling)) }), photo: small };
}

/** segment()'s answer: the probabilities (0..255), and the photo at their size, packed RGB. */
export interface Segmentation extends Mask {
  /** What the cleanup's colour rules read (mask-cleanup.ts, `removeHands`). */
  photo: Uint8Array;
}
