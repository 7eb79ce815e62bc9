import sharp from 'sharp';
import type { SegmentationModel } from '../model/session.js';
import type { Mask } from '../types.js';

/** Small generated images and a stand-in model for tests (no files, no ONNX). */

/** "Segments" whatever is darker than light grey: good enough for drawn test scenes. */
export class ThresholdModel implements SegmentationModel {
  readonly inputSize: number = 256;
  calls = 0;
  async run(input: Float32Array): Promise<Float32Array> {
    this.calls++;
    const plane = this.inputSize * this.inputSize;
    const out = new Float32Array(plane);
    for (let i = 0; i < plane; i++) {
      const mean = (input[i]! + input[i + plane]! + input[i + 2 * plane]!) / 3; // (v - 128) / 256
      out[i] = mean < 0.25 ? 1 : 0;
    }
    return out;
  }
  async close(): Promise<void> {}
}

/** ThresholdModel at any side, as the default model's free input size allows; `sides` logs each run's side. */
export class FreeSizeThresholdModel extends ThresholdModel {
  override readonly inputSize: number;
  constructor(
    side: number,
    readonly sides: number[] = [],
  ) {
    super();
    this.inputSize = side;
  }
  override async run(input: Float32Array): Promise<Float32Array> {
    this.sides.push(this.inputSize);
    const plane = this.inputSize * this.inputSize;
    const out = new Float32Array(plane);
    for (let i = 0; i < plane; i++) out[i] = (input[i]! + input[i + plane]! + input[i + 2 * plane]!) / 3 < 0.25 ? 1 : 0;
    return out;
  }
  atSize(side: number): FreeSizeThresholdModel {
    return new FreeSizeThresholdModel(side, this.sides);
  }
}

export function maskFrom(width: number, height: number, inside: (x: number, y: number) => boolean): Mask {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) if (inside(x + 0.5, y + 0.5)) data[y * width + x] = 255;
  return { data, width, height };
}

/** A shape given in its own frame (u, v about its centre), turned by deg clockwise about (cx, cy). */
export function turned(cx: number, cy: number, deg: number, inside: (u: number, v: number) => boolean) {
  const t = (deg * Math.PI) / 180,
    c = Math.cos(t),
    s = Math.sin(t);
  return (x: number, y: number) => {
    const dx = x - cx,
      dy = y - cy;
    return inside(dx * c + dy * s, -dx * s + dy * c);
  };
}

/** Inside a w x h rectangle centred at (cx, cy), rotated by deg clockwise. */
export function rotatedRect(cx: number, cy: number, w: number, h: number, deg: number) {
  return turned(cx, cy, deg, (u, v) => Math.abs(u) <= w / 2 && Math.abs(v) <= h / 2);
}

/** A T-shirt-like symmetric shape: body plus two sleeves, rotated by deg about (cx, cy). */
export function tshirt(cx: number, cy: number, size: number, deg: number) {
  const body = rotatedRect(0, 0, size * 0.6, size, 0);
  const sleeves = rotatedRect(0, -size * 0.3, size, size * 0.25, 0);
  const t = (deg * Math.PI) / 180,
    c = Math.cos(t),
    s = Math.sin(t);
  return (x: number, y: number) => {
    const dx = x - cx,
      dy = y - cy;
    const u = dx * c + dy * s,
      v = -dx * s + dy * c;
    return body(u, v) || sleeves(u, v);
  };
}

/** A JPEG/PNG photo: dark product shape on a white table. */
export async function drawnPhoto(
  width: number,
  height: number,
  inside: (x: number, y: number) => boolean,
  format: 'png' | 'jpeg' = 'png',
): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3, 250);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (inside(x + 0.5, y + 0.5)) {
        const k = (y * width + x) * 3;
        data[k] = 40;
        data[k + 1] = 60;
        data[k + 2] = 120;
      }
  const s = sharp(data, { raw: { width, height, channels: 3 } });
  return format === 'png' ? s.png().toBuffer() : s.jpeg({ quality: 95 }).toBuffer();
}
