import sharp from 'sharp';
import type { SegmentationModel } from '../model/session.js';
import type { Mask, RawImage } from '../types.js';
import { refineEdges } from './refine-edges.js';

/** Long side of the mask the cleanup and geometry stages work on. */
export const MASK_LONG_SIDE = 1024;

/** ISNet's input normalisation, as the model was exported: (value - 128) / 256, planar RGB. */
export function toModelInput(rgb: Buffer, size: number): Float32Array {
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  for (let i = 0, j = 0; j < plane; i += 3, j++) {
    out[j] = (rgb[i]! - 128) / 256;
    out[j + plane] = (rgb[i + 1]! - 128) / 256;
    out[j + 2 * plane] = (rgb[i + 2]! - 128) / 256;
  }
  return out;
}

/**
 * The product's probability mask (0..255) at the working image's aspect ratio, long side
 * MASK_LONG_SIDE (or the image's own size when smaller). When the model ran at a smaller size
 * than the mask (inference at 768 px), the upsampled mask's edges are refined against the photo
 * at the mask's resolution (refine-edges.ts), so a smaller inference costs little edge quality.
 */
export async function segment(image: RawImage, model: SegmentationModel): Promise<Mask> {
  const s = model.inputSize;
  const squashed = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .resize(s, s, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer();
  const probs = await model.run(toModelInput(squashed, s));
  const plane = Buffer.alloc(s * s);
  for (let i = 0; i < plane.length; i++) plane[i] = Math.max(0, Math.min(255, Math.round(probs[i]! * 255)));
  const scale = Math.min(1, MASK_LONG_SIDE / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const data = await sharp(plane, { raw: { width: s, height: s, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  const mask = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width, height };
  const upsampling = Math.max(width, height) / s;
  if (upsampling <= 1) return mask;
  const luma = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels },
  })
    .resize(width, height, { fit: 'fill' })
    .removeAlpha()
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  return refineEdges(mask, new Uint8Array(luma.buffer, luma.byteOffset, luma.length), {
    radius: Math.max(2, Math.round(2 * upsampling)),
  });
}
