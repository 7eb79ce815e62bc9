import { EngineError } from '../errors.js';
import type { RawImage } from '../types.js';

/** What every decoder (sharp's, and the HEIC fallback) takes and gives, and the size rule they share. */
export type InputFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff' | 'avif' | 'heif';

export interface DecodeOptions {
  /** Largest accepted input in pixels (after reading the header, before decoding). */
  maxPixels: number;
  /** Long side of the working copy handed to later stages. */
  workingLongSide: number;
}

export interface DecodedImage {
  /** Upright sRGB 8-bit RGB pixels. */
  image: RawImage;
  format: InputFormat;
  originalWidth: number;
  originalHeight: number;
}

/** Refuses an image with no pixels, or more than the engine accepts, before it is decoded. */
export function checkPixels(width: number, height: number, options: DecodeOptions): void {
  if (!(width > 0 && height > 0)) throw new EngineError('CORRUPT_IMAGE', 'image has no pixels');
  if (width * height > options.maxPixels) {
    throw new EngineError(
      'TOO_MANY_PIXELS',
      `image has ${width}x${height} = ${((width * height) / 1e6).toFixed(1)} MP, the limit is ${(options.maxPixels / 1e6).toFixed(0)} MP`,
    );
  }
}
