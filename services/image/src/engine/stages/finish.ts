import sharp from 'sharp';
import { BACKGROUND_RGB, type Background, type OutputFormat, type RawImage } from '../types.js';
import type { Layer } from './compose.js';
import { applyGains } from './white-balance.js';

export interface FinishOptions {
  background: Background;
  shadow: boolean;
  transparent: boolean;
  gains: [number, number, number];
  sharpen: number;
}

const raw = (img: RawImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });

/** Colour-balance and gently sharpen a placed layer's colour; its alpha is left exactly as cut. */
export async function finishLayer(layer: Layer, gains: [number, number, number], sharpen: number): Promise<Layer> {
  const balanced = applyGains(layer.image, gains);
  if (sharpen <= 0) return { ...layer, image: balanced };
  const { width, height, channels } = balanced;
  let rgb = await raw(balanced).removeAlpha().sharpen({ sigma: 0.5 + 0.5 * sharpen, m1: 0.5, m2: 1.5 + sharpen }).raw().toBuffer();
  if (channels === 4) {
    rgb = await sharp(rgb, { raw: { width, height, channels: 3 } })
      .joinChannel(await raw(balanced).extractChannel(3).raw().toBuffer(), { raw: { width, height, channels: 1 } })
      .raw()
      .toBuffer();
  }
  return { ...layer, image: { data: rgb, width, height, channels } };
}

/** A soft elliptical contact shadow under a layer (drawn, blurred, faint). */
function contactShadow(layer: Layer, canvasW: number, canvasH: number): sharp.OverlayOptions {
  const w = Math.max(4, Math.round(layer.image.width * 0.9));
  const h = Math.max(2, Math.round(layer.image.width * 0.05));
  const cx = layer.left + layer.image.width / 2;
  const cy = Math.min(canvasH - h, layer.top + layer.image.height - h * 0.3);
  const blur = Math.max(1, Math.round(h * 0.6));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${canvasW}" height="${canvasH}">
    <defs><filter id="b" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${blur}"/></filter></defs>
    <ellipse cx="${cx}" cy="${cy}" rx="${w / 2}" ry="${h / 2}" fill="#000" fill-opacity="0.22" filter="url(#b)"/></svg>`;
  return { input: Buffer.from(svg), left: 0, top: 0 };
}

/** Put the layers on the studio background (or a transparent canvas). Returns raw pixels. */
export async function composeCanvas(layers: Layer[], width: number, height: number, o: FinishOptions): Promise<RawImage> {
  const [r, g, b] = BACKGROUND_RGB[o.background];
  const canvas = sharp({
    create: { width, height, channels: 4, background: o.transparent ? { r: 0, g: 0, b: 0, alpha: 0 } : { r, g, b, alpha: 1 } },
  });
  const overlays: sharp.OverlayOptions[] = [];
  if (o.shadow && !o.transparent) for (const l of layers) overlays.push(contactShadow(l, width, height));
  for (const l of layers) {
    overlays.push({
      input: l.image.data,
      raw: { width: l.image.width, height: l.image.height, channels: l.image.channels },
      left: l.left,
      top: l.top,
    });
  }
  let pipeline = canvas.composite(overlays);
  if (!o.transparent) pipeline = sharp(await pipeline.raw().toBuffer(), { raw: { width, height, channels: 4 } }).removeAlpha();
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
}

export async function encode(img: RawImage, format: OutputFormat, transparent: boolean): Promise<Buffer> {
  const s = raw(img).withIccProfile('srgb');
  if (transparent || format === 'png') return s.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
  if (format === 'jpeg') return s.jpeg({ quality: 92, chromaSubsampling: '4:4:4', mozjpeg: false }).toBuffer();
  if (format === 'webp') return s.webp({ quality: 92, smartSubsample: true }).toBuffer();
  return s.avif({ quality: 70, effort: 2, chromaSubsampling: '4:4:4' }).toBuffer();
}
