import { createRequire } from 'node:module';
import sharp from 'sharp';
import { EngineError } from '../errors.js';
import { checkPixels, type DecodedImage, type DecodeOptions } from './decoded-image.js';
import { heifDataEnd } from './heif-extents.js';

/**
 * HEIC (HEVC-coded HEIF) fallback: sharp's prebuilt libvips reads AVIF but has no HEVC decoder,
 * so HEIC goes through libheif compiled to WebAssembly (libheif-js). libheif applies the
 * container's rotation and mirroring itself.
 *
 * libheif-js is used directly rather than through a wrapper, for three reasons: its decoder
 * prints parse errors with console.log, which would break the CLI's one-JSON-line-per-input
 * output, so they are captured here and put into the error instead; every decoded image must be
 * freed, or the WebAssembly heap grows with each photo; and a file cut short decodes without an
 * error (missing tiles come out green), so item locations are checked against the file's length.
 */

interface HeifImage {
  get_width(): number;
  get_height(): number;
  display(
    target: { data: Uint8ClampedArray; width: number; height: number },
    done: (result: { data: Uint8ClampedArray } | null) => void,
  ): void;
  free(): void;
}
interface LibHeif {
  ready?: Promise<unknown>;
  HeifDecoder: new () => { decoder: { delete(): void }; decode(buffer: Uint8Array): HeifImage[] };
}

let libheif: LibHeif | undefined;
function loadLibheif(): LibHeif {
  if (!libheif) {
    try {
      libheif = createRequire(import.meta.url)('libheif-js/wasm-bundle') as LibHeif;
    } catch (cause) {
      throw new EngineError('UNSUPPORTED_FORMAT', 'HEIC decoder is not installed', { cause });
    }
  }
  return libheif;
}

/** Runs libheif's synchronous parse with console.log captured (nothing else can log meanwhile). */
function parse(
  lib: LibHeif,
  bytes: Uint8Array,
): { decoder: InstanceType<LibHeif['HeifDecoder']>; images: HeifImage[]; said: string } {
  const decoder = new lib.HeifDecoder();
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  try {
    return { decoder, images: decoder.decode(bytes), said: lines.join('; ') };
  } finally {
    console.log = log;
  }
}

function rgbaOf(image: HeifImage): Promise<Uint8ClampedArray> {
  const width = image.get_width(),
    height = image.get_height();
  return new Promise((resolve, reject) => {
    image.display({ data: new Uint8ClampedArray(width * height * 4), width, height }, (result) =>
      result ? resolve(result.data) : reject(new Error('libheif could not decode the image')),
    );
  });
}

export async function decodeHeicWithWasm(buf: Buffer, options: DecodeOptions): Promise<DecodedImage> {
  const dataEnd = heifDataEnd(buf);
  if (dataEnd !== null && dataEnd > buf.length) {
    throw new EngineError(
      'CORRUPT_IMAGE',
      `HEIC file is incomplete: its image data runs to byte ${dataEnd}, but the file has ${buf.length} bytes`,
    );
  }
  const lib = loadLibheif();
  await lib.ready;
  const { decoder, images, said } = parse(lib, new Uint8Array(buf));
  try {
    const first = images[0];
    if (!first)
      throw new EngineError('CORRUPT_IMAGE', `HEIC image is damaged or incomplete: ${said || 'it holds no image'}`);
    const width = first.get_width(),
      height = first.get_height();
    checkPixels(width, height, options);
    let rgba: Uint8ClampedArray;
    try {
      rgba = await rgbaOf(first);
    } catch (cause) {
      throw new EngineError('CORRUPT_IMAGE', `HEIC image is damaged or incomplete: ${(cause as Error).message}`, {
        cause,
      });
    }
    const { data, info } = await sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), {
      raw: { width, height, channels: 4 },
    })
      .resize({
        width: options.workingLongSide,
        height: options.workingLongSide,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .flatten({ background: { r: 255, g: 255, b: 255 } })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      image: { data, width: info.width, height: info.height, channels: 3 },
      format: 'heif',
      originalWidth: width,
      originalHeight: height,
    };
  } finally {
    for (const image of images) image.free();
    decoder.decoder.delete();
  }
}
