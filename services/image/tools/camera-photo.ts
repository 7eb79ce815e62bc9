import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

/**
 * A camera-like JPEG of `mp` megapixels made from the dataset's casual top_floor_02.jpg: the photo
 * upscaled, with sensor-like grain added. An upscaled photo alone is unnaturally smooth and
 * decodes about a third faster than a real 12 MP camera JPEG; the grain (a fixed pseudo-random
 * sequence, so every run sees the same file) brings the file to a camera's 2-4 bits per pixel.
 */
export async function cameraPhoto(dataset: string, mp: number): Promise<Buffer> {
  const src = await readFile(path.join(dataset, 'casual', 'top_floor_02.jpg'));
  const meta = await sharp(src).metadata();
  const aspect = meta.width! / meta.height!;
  const h = Math.round(Math.sqrt((mp * 1e6) / aspect));
  const w = Math.round(h * aspect);
  const { data } = await sharp(src).resize(w, h, { kernel: 'cubic' }).raw().toBuffer({ resolveWithObject: true });
  const grainy = new Uint8ClampedArray(data.buffer, data.byteOffset, data.length);
  let seed = 0x9e3779b9;
  for (let i = 0; i < grainy.length; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5; // xorshift32
    grainy[i] = grainy[i]! + ((seed & 31) - 15.5); // uniform grain of ±16 levels: about 2.2 bits per pixel at q90
  }
  return sharp(data, { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}
