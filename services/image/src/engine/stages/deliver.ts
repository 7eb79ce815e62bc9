import sharp from 'sharp';
import type { OutputFormat, RawImage } from '../types.js';
import { encode } from './encode.js';

export const THUMBNAIL_LONG_SIDE = 384;
export const PREVIEW_LONG_SIDE = 512;

const raw = (img: RawImage) =>
  sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });

async function shrink(img: RawImage, longSide: number): Promise<RawImage> {
  const { data, info } = await raw(img)
    .resize(longSide, longSide, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
}

/** Diagonal bands and a lattice of crosses: no fonts needed, impossible to crop around. */
function watermark(width: number, height: number): Buffer {
  const step = Math.max(24, Math.round(Math.max(width, height) / 8));
  let marks = '';
  for (let y = -step; y < height + step; y += step) {
    for (let x = (y / step) % 2 ? 0 : step / 2; x < width + step; x += step) {
      marks += `<path d="M${x - 10} ${y - 10} L${x + 10} ${y + 10} M${x - 10} ${y + 10} L${x + 10} ${y - 10}" />`;
    }
  }
  let bands = '';
  for (let k = -height; k < width; k += step) bands += `<line x1="${k}" y1="${height}" x2="${k + height}" y2="0" />`;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <g stroke="#7a7a7a" stroke-opacity="0.55" stroke-width="${Math.max(3, step / 10)}">${bands}</g>
    <g stroke="#ffffff" stroke-opacity="0.85" stroke-width="4">${marks}</g>
    <rect x="0" y="${height / 2 - step / 3}" width="${width}" height="${(2 * step) / 3}" fill="#000" fill-opacity="0.35"/>
  </svg>`);
}

export interface Delivery {
  full: Buffer;
  thumbnail: Buffer;
  preview: Buffer;
}

/** The locked preview: the preview-size image flattened on white, blurred and watermarked, as a JPEG. */
function lockedPreview(small: RawImage): Promise<Buffer> {
  return raw(small)
    .flatten({ background: '#ffffff' })
    .blur(Math.max(2, small.width / 90))
    .composite([{ input: watermark(small.width, small.height), left: 0, top: 0 }])
    .jpeg({ quality: 60 })
    .toBuffer();
}

/**
 * Full result, thumbnail (same format), and a locked preview: small, blurred, watermarked JPEG.
 * The thumbnail is shrunk from the preview's size (a 16x smaller read than the full canvas), and
 * both are made on libvips' threads while the full result is encoded.
 */
export async function deliver(img: RawImage, format: OutputFormat, transparent: boolean): Promise<Delivery> {
  const [full, [thumbnail, preview]] = await Promise.all([
    encode(img, format, transparent),
    shrink(img, PREVIEW_LONG_SIDE).then((small) =>
      Promise.all([
        shrink(small, THUMBNAIL_LONG_SIDE).then((thumb) => encode(thumb, format, transparent)),
        lockedPreview(small),
      ]),
    ),
  ]);
  return { full, thumbnail, preview };
}
