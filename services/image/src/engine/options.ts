import { EngineError } from './errors.js';
import type { Background, OutputFormat } from './types.js';

export interface EnhanceOptions {
  /** Main type (clothing, accessory, shoes, details) or a sub-type (e.g. side_view). Default clothing. */
  type?: string;
  subType?: string;
  background?: Background;
  shadow?: boolean;
  /** Long side of the result in pixels (64..4096). Default 2048, or the preset's size. */
  size?: number;
  format?: OutputFormat;
  /** PNG with the cut-out's alpha on a transparent canvas. */
  transparent?: boolean;
  preset?: string;
}

export interface ResolvedOptions {
  type: string;
  subType: string | undefined;
  background: Background;
  shadow: boolean;
  size: number | undefined;
  format: OutputFormat;
  transparent: boolean;
  preset: string | undefined;
}

export const MAX_SIZE = 4096;
export const MIN_SIZE = 64;
const FORMATS: OutputFormat[] = ['jpeg', 'png', 'webp', 'avif'];

export function resolveOptions(o: EnhanceOptions = {}): ResolvedOptions {
  const background = o.background ?? 'white';
  if (background !== 'white' && background !== 'grey')
    throw new EngineError('INVALID_OPTIONS', `background must be white or grey, not "${background}"`);
  let format = (o.format ?? 'jpeg').toLowerCase() as OutputFormat;
  if ((format as string) === 'jpg') format = 'jpeg';
  if (!FORMATS.includes(format))
    throw new EngineError('INVALID_OPTIONS', `format must be one of ${FORMATS.join(', ')}, not "${o.format}"`);
  if (o.size !== undefined && (!Number.isInteger(o.size) || o.size < MIN_SIZE || o.size > MAX_SIZE)) {
    throw new EngineError(
      'INVALID_OPTIONS',
      `size must be a whole number from ${MIN_SIZE} to ${MAX_SIZE}, not ${o.size}`,
    );
  }
  const transparent = o.transparent ?? false;
  return {
    type: o.type ?? 'clothing',
    subType: o.subType,
    background,
    shadow: o.shadow ?? false,
    size: o.size,
    format: transparent ? 'png' : format,
    transparent,
    preset: o.preset,
  };
}
