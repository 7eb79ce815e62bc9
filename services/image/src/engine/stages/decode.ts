import sharp, { type Metadata, type Sharp } from 'sharp';
import { EngineError } from '../errors.js';
import type { RawImage } from '../types.js';
import { checkPixels, type DecodedImage, type DecodeOptions, type InputFormat } from './decoded-image.js';
import { decodeHeicWithWasm } from './heic-fallback.js';

export type { DecodedImage, DecodeOptions, InputFormat } from './decoded-image.js';

/** Identify the container from its magic bytes; anything else is refused before decoding. */
export function sniffFormat(buf: Buffer): InputFormat | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 8 && buf.readUInt32BE(0) === 0x89504e47 && buf.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  if (buf.length >= 6 && /^GIF8[79]a$/.test(buf.toString('latin1', 0, 6))) return 'gif';
  if (buf.length >= 4 && (buf.toString('latin1', 0, 4) === 'II*\0' || buf.toString('latin1', 0, 4) === 'MM\0*'))
    return 'tiff';
  if (buf.length >= 12 && buf.toString('latin1', 4, 8) === 'ftyp') {
    const brands = buf.toString('latin1', 8, Math.min(buf.length, 8 + Math.max(8, buf.readUInt32BE(0) - 8)));
    if (/avif|avis/.test(brands)) return 'avif';
    if (/heic|heix|hevc|hevx|heim|heis|mif1|msf1/.test(brands)) return 'heif';
  }
  return null;
}

function describeUnknown(buf: Buffer): string {
  const head = buf.toString('latin1', 0, Math.min(buf.length, 256)).trimStart();
  if (head.startsWith('%PDF')) return 'PDF documents are not images';
  if (/^<\?xml|^<svg|<svg[\s>]/i.test(head)) return 'SVG (vector) images are not accepted';
  if (buf.length >= 2 && buf[0] === 0x42 && buf[1] === 0x4d) return 'BMP is not a supported format';
  return 'not a supported image (JPEG, PNG, WebP, AVIF, GIF, TIFF, HEIC/HEIF)';
}

function mapSharpError(err: unknown): EngineError {
  const message = (err as Error)?.message ?? String(err);
  if (/pixel limit/i.test(message))
    return new EngineError('TOO_MANY_PIXELS', `image too large: ${message}`, { cause: err });
  // the magic bytes named a supported format, so a decoder failure means a damaged file
  return new EngineError('CORRUPT_IMAGE', `image is damaged or incomplete: ${message}`, { cause: err });
}

async function toWorkingRgb(input: Sharp, options: DecodeOptions): Promise<RawImage> {
  const { data, info } = await input
    .rotate() // EXIF orientation 1-8
    .resize({
      width: options.workingLongSide,
      height: options.workingLongSide,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .flatten({ background: { r: 255, g: 255, b: 255 } })
    .toColourspace('srgb') // CMYK, grey, 16-bit and ICC-tagged inputs end as 8-bit sRGB
    .removeAlpha()
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new EngineError('CORRUPT_IMAGE', `unexpected channel count ${info.channels}`);
  return { data, width: info.width, height: info.height, channels: 3 };
}

export async function decodeImage(buf: Buffer, options: DecodeOptions): Promise<DecodedImage> {
  if (!Buffer.isBuffer(buf) || buf.length === 0) throw new EngineError('EMPTY_INPUT', 'no image data');
  const format = sniffFormat(buf);
  if (!format) throw new EngineError('UNSUPPORTED_FORMAT', describeUnknown(buf));
  const open = () =>
    sharp(buf, { limitInputPixels: options.maxPixels, failOn: 'truncated', sequentialRead: true, pages: 1 }).timeout({
      seconds: 30,
    });
  let meta: Metadata;
  try {
    meta = await open().metadata();
  } catch (err) {
    if (format === 'heif') return decodeHeicWithWasm(buf, options);
    throw mapSharpError(err);
  }
  const upright = (meta.orientation ?? 1) >= 5;
  const width = upright ? meta.height : meta.width;
  const height = upright ? meta.width : meta.height;
  checkPixels(width ?? 0, height ?? 0, options);
  try {
    const image = await toWorkingRgb(open(), options);
    return { image, format, originalWidth: width!, originalHeight: height! };
  } catch (err) {
    if (err instanceof EngineError) throw err;
    if (format === 'heif') return decodeHeicWithWasm(buf, options);
    throw mapSharpError(err);
  }
}
