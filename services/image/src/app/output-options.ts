import { AppError } from '@flatlay/platform';
import { isEngineError } from '../engine/errors.js';
import { resolveOptions } from '../engine/options.js';
import { resolvePreset } from '../engine/presets/index.js';
import type { GenerationOptions } from '../adapters/image-store.js';

/** The caller's output options, checked now with the engine's own rules so a job never fails on them. */
export function checkOutputOptions(o: Partial<GenerationOptions> | undefined): GenerationOptions {
  const options: GenerationOptions = {
    background: o?.background || 'white',
    shadow: o?.shadow ?? false,
    size: o?.size ?? 0,
    format: o?.format || 'jpeg',
    transparent: o?.transparent ?? false,
    preset: o?.preset ?? '',
  };
  try {
    const resolved = resolveOptions({
      background: options.background as 'white',
      format: options.format as 'jpeg',
      size: options.size || undefined,
      transparent: options.transparent,
    });
    if (options.preset) resolvePreset(options.preset);
    return { ...options, format: resolved.format };
  } catch (error) {
    if (isEngineError(error)) throw new AppError('INVALID_ARGUMENT', error.message);
    throw error;
  }
}
