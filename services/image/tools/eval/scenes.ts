import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

/** Synthetic scenes with known answers, built from a clean garment and its mask. */

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Scene {
  name: string;
  input: Buffer; // JPEG, as a phone would deliver it
  gtMask: { data: Uint8Array; width: number; height: number }; // scene coordinates
  rotationDeg: number; // applied clockwise
  cast: [number, number, number];
  cleanRgb: { data: Buffer; width: number; height: number };
  cleanMask: Uint8Array;
}

const SCENE = 1200;

export async function makeScene(dataset: string, garment: string, background: string, seed: number): Promise<Scene> {
  const rand = rng(seed);
  const file = path.join(dataset, 'clean', garment);
  const stem = garment.replace(/\.[^.]+$/, '');
  const maskFile = (await import('node:fs'))
    .readdirSync(path.join(dataset, 'clean'))
    .find((f) => f.startsWith(`${stem}_mask.`))!;
  const rgbImg = await sharp(await readFile(file))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = rgbImg.info;
  const maskRaw = await sharp(await readFile(path.join(dataset, 'clean', maskFile)))
    .resize(w, h, { fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const mask = new Uint8Array(maskRaw.length);
  for (let i = 0; i < mask.length; i++) mask[i] = maskRaw[i]! >= 128 ? 255 : 0;

  const rotationDeg = Math.round((rand() * 30 - 15) * 10) / 10;
  const scale = ((0.5 + rand() * 0.25) * SCENE) / Math.max(w, h);
  // one operation per sharp pass: sharp reorders rotate and resize inside a single pipeline
  const joined = await sharp(rgbImg.data, { raw: { width: w, height: h, channels: 3 } })
    .joinChannel(Buffer.from(mask), { raw: { width: w, height: h, channels: 1 } })
    .raw()
    .toBuffer();
  const sw = Math.round(w * scale),
    sh = Math.round(h * scale);
  const scaled = await sharp(joined, { raw: { width: w, height: h, channels: 4 } })
    .resize(sw, sh, { fit: 'fill' })
    .raw()
    .toBuffer();
  const rgba = await sharp(scaled, { raw: { width: sw, height: sh, channels: 4 } })
    .rotate(rotationDeg, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const gw = rgba.info.width,
    gh = rgba.info.height;
  const left = Math.round((SCENE - gw) * (0.2 + 0.6 * rand()));
  const top = Math.round((SCENE - gh) * (0.2 + 0.6 * rand()));
  const bg = await sharp(path.join(dataset, 'backgrounds', background))
    .resize(SCENE, SCENE, { fit: 'cover' })
    .removeAlpha()
    .toBuffer();
  const scene = await sharp(bg)
    .composite([{ input: rgba.data, left, top }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const cast: [number, number, number] = [0.9 + rand() * 0.2, 1, 0.9 + rand() * 0.2];
  const input = await sharp(scene.data, { raw: { width: SCENE, height: SCENE, channels: 3 } })
    .linear(cast, [0, 0, 0])
    .jpeg({ quality: 92 })
    .toBuffer();
  const gt = await sharp({
    create: { width: SCENE, height: SCENE, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } },
  })
    .composite([{ input: await sharp(rgba.data).extractChannel(3).toColourspace('b-w').png().toBuffer(), left, top }])
    .extractChannel(0)
    .raw()
    .toBuffer();
  const gtMask = new Uint8Array(gt.length);
  for (let i = 0; i < gt.length; i++) gtMask[i] = gt[i]! >= 128 ? 255 : 0;
  return {
    name: `${stem}@${background.replace(/\.[^.]+$/, '')}`,
    input,
    gtMask: { data: gtMask, width: SCENE, height: SCENE },
    rotationDeg,
    cast,
    cleanRgb: { data: rgbImg.data, width: w, height: h },
    cleanMask: mask,
  };
}
