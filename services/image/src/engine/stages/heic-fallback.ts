import sharp from 'sharp';
import { EngineError } from '../errors.js';
import type { DecodedImage, DecodeOptions } from './decode.js';

/**
 * HEIC (HEVC-coded HEIF) fallback: sharp's prebuilt libvips reads AVIF but has no HEVC decoder,
 * so HEIC goes through libheif compiled to WebAssembly (heic-decode). libheif applies the
 * container's rotation and mirroring itself.
 */
export async function decodeHeicWithWasm(
  buf: Buffer,
  options: DecodeOptions,
  checkPixels: (w: number, h: number, o: DecodeOptions) => void,
): Promise<DecodedImage> {
  type HeicDecode = {
    all: (o: { buffer: Uint8Array }) => Promise<{ width: number; height: number; decode: () => Promise<{ data: Uint8ClampedArray }> }[]>;
  };
  let lib: HeicDecode;
  try {
    lib = (await import('heic-decode')).default as unknown as HeicDecode;
  } catch (cause) {
    throw new EngineError('UNSUPPORTED_FORMAT', 'HEIC decoder is not installed', { cause });
  }
  let frames;
  try {
    frames = await lib.all({ buffer: new Uint8Array(buf) });
  } catch (cause) {
    throw new EngineError('CORRUPT_IMAGE', `HEIC image is damaged or incomplete: ${(cause as Error)?.message ?? cause}`, { cause });
  }
  const first = frames[0];
  if (!first) throw new EngineError('CORRUPT_IMAGE', 'HEIC file holds no image');
  checkPixels(first.width, first.height, options);
  let rgba: Uint8ClampedArray;
  try {
    rgba = (await first.decode()).data;
  } catch (cause) {
    throw new EngineError('CORRUPT_IMAGE', `HEIC image is damaged or incomplete: ${(cause as Error)?.message ?? cause}`, { cause });
  }
  const { data, info } = await sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), {
    raw: { width: first.width, height: first.height, channels: 4 },
  })
    .resize({ width: options.workingLongSide, height: options.workingLongSide, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: { r: 255, g: 255, b: 255 } })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    image: { data, width: info.width, height: info.height, channels: 3 },
    format: 'heif',
    originalWidth: first.width,
    originalHeight: first.height,
  };
}
