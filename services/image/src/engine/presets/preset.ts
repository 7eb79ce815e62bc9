import type { Background, Box, OutputFormat, RawImage } from '../types.js';

export interface CheckInput {
  width: number;
  height: number;
  format: OutputFormat;
  transparent: boolean;
  background: Background;
  /** Placed product, canvas coordinates. */
  productBox: Box;
  /** The delivered file decoded again (RGB or RGBA), so checks see what the marketplace sees. */
  pixels: RawImage;
}

export interface CheckResult {
  rule: string;
  pass: boolean;
  detail: string;
}

export interface Preset {
  id: PresetId;
  label: string;
  /** Layout the engine uses for this marketplace. */
  aspect: number;
  margin: number;
  size: number;
  check(input: CheckInput): CheckResult[];
}

export const PRESET_IDS = ['amazon', 'shopify', 'zalando', 'ebay', 'etsy', 'vinted'] as const;
export type PresetId = (typeof PRESET_IDS)[number];
