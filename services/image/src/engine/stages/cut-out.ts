import sharp from 'sharp';
import type { Recipe } from '../recipes/index.js';
import type { Box, Mask, RawImage } from '../types.js';
import type { Layout, Measurement } from './layout.js';
import { boundingBox, components, scaleBox } from './mask-ops.js';
import { shrinkMask, symmetryAxis } from './straighten.js';

/** Pixel work of the compose stage: cut out, straighten, measure, cut the placed layers. */

export interface Layer {
  image: RawImage; // RGBA (cut-outs) or RGB (close-ups)
  left: number;
  top: number;
}

const raw = (img: RawImage) =>
  sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });

/**
 * The product's region of the working photo, with its alpha (mask upscaled smoothly to full size,
 * then cut to the region). Cutting before straightening means the rotation and every later pass
 * touch only the product's pixels, not the whole photo's.
 */
export async function cutOut(rgb: RawImage, alpha: Mask, region?: Box): Promise<RawImage> {
  const r = region ?? { left: 0, top: 0, right: rgb.width, bottom: rgb.height };
  const area = { left: r.left, top: r.top, width: r.right - r.left, height: r.bottom - r.top };
  const cutAlpha = await sharp(Buffer.from(alpha.data.buffer, alpha.data.byteOffset, alpha.data.length), {
    raw: { width: alpha.width, height: alpha.height, channels: 1 },
  })
    .resize(rgb.width, rgb.height, { fit: 'fill', kernel: 'linear' })
    .extract(area)
    .toColourspace('b-w')
    .raw()
    .toBuffer();
  // the region's colour is cut and joined to its alpha in one pass (no copy of the region between)
  const photo = region ? raw(rgb).extract(area) : raw(rgb);
  const data = await photo
    .joinChannel(cutAlpha, { raw: { width: area.width, height: area.height, channels: 1 } })
    .raw()
    .toBuffer();
  return { data, width: area.width, height: area.height, channels: 4 };
}

/** Working-image box around everything the alpha keeps (its feathered edge included), padded. */
export function productRegion(alpha: Mask, width: number, height: number, pad = 2): Box | null {
  const b = boundingBox(alpha, 1);
  return b && scaleBox(b, width / alpha.width, height / alpha.height, width, height, pad);
}

/** Whether rotateCutout turns the cut-out at all: smaller corrections leave it as it is. */
export function turnsCutout(deg: number): boolean {
  return Math.abs(deg) >= 0.05;
}

/** Rotate (degrees clockwise) onto an enlarged transparent canvas. */
export async function rotateCutout(rgba: RawImage, deg: number): Promise<RawImage> {
  if (!turnsCutout(deg)) return rgba;
  const { data, info } = await raw(rgba)
    .rotate(deg, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 4 };
}

/** Alpha channel as a mask, at most `longSide` pixels long. */
export async function alphaMask(rgba: RawImage, longSide = 1024): Promise<Mask> {
  const s = Math.min(1, longSide / Math.max(rgba.width, rgba.height));
  const w = Math.max(1, Math.round(rgba.width * s)),
    h = Math.max(1, Math.round(rgba.height * s));
  const data = await raw(rgba).extractChannel(3).resize(w, h, { fit: 'fill', kernel: 'linear' }).raw().toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: w, height: h };
}

/** Box, axis of symmetry and separate parts of the straightened product, in its pixel coordinates. */
export function measure(mask: Mask, fullWidth: number, fullHeight: number, recipe: Recipe): Measurement | null {
  const box = boundingBox(mask, 128);
  if (!box) return null;
  const sx = fullWidth / mask.width,
    sy = fullHeight / mask.height;
  const toFull = (b: Box) => scaleBox(b, sx, sy, fullWidth, fullHeight);
  const axis = recipe.centreOnSymmetry ? symmetryAxis(mask).x : (box.left + box.right) / 2;
  let parts: (typeof box)[] = [];
  if (recipe.pairSideBySide) {
    const small = shrinkMask(mask, 512);
    const cc = components(small, { level: 128 });
    const f = mask.width / small.width;
    const order = cc.areas
      .map((a, i) => ({ a, i }))
      .slice(1)
      .sort((p, q) => q.a - p.a);
    const big = order.filter((o) => o.a >= 0.25 * (order[0]?.a ?? 0)).slice(0, 2);
    parts = big.map(({ i }) => {
      const b = cc.boxes[i]!;
      return toFull({ left: b.left * f, top: b.top * f, right: b.right * f, bottom: b.bottom * f });
    });
  }
  return { box: toFull(box), axisX: axis * sx, parts };
}

/** Cut each placed region out of the straightened image and scale it to its size on the canvas. */
export async function placeLayers(source: RawImage, layout: Layout): Promise<Layer[]> {
  return Promise.all(
    layout.placements.map(async (p) => {
      const { data, info } = await raw(source)
        .extract({
          left: p.region.left,
          top: p.region.top,
          width: p.region.right - p.region.left,
          height: p.region.bottom - p.region.top,
        })
        .resize(p.width, p.height, { fit: 'fill', kernel: 'lanczos3' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      return {
        image: { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 },
        left: p.left,
        top: p.top,
      };
    }),
  );
}
