/** Plain pixel containers passed between stages. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

/** A single-channel 8-bit mask (0 = background, 255 = product). */
export interface Mask {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface Box {
  left: number;
  top: number;
  right: number; // exclusive
  bottom: number; // exclusive
}

export type Background = 'white' | 'grey';
export type OutputFormat = 'jpeg' | 'png' | 'webp' | 'avif';

export const BACKGROUND_RGB: Record<Background, [number, number, number]> = {
  white: [255, 255, 255],
  grey: [236, 236, 234],
};

export function boxWidth(b: Box): number {
  return b.right - b.left;
}
export function boxHeight(b: Box): number {
  return b.bottom - b.top;
}
