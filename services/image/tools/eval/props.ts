/**
 * Real props for the eval's prop scenes (scenes.ts, `makePropScene`): a hanger, a clothes rail
 * with its hanger's hook, and a hand, cut from the dataset's own casual photos by outlines traced
 * by hand on those photos (the outlines are this file's; the photos stay in the dataset, which
 * the eval reads at run time). Each is composited touching a clean garment whose mask is known,
 * so the scene's truth is exact: a prop behind the product (hanger, rail) is not in the product's
 * mask, and a prop over it (a hand) takes from the mask what it covers.
 *
 * The pure parts (filling an outline, painting one layer onto another, where a prop meets the
 * product) are here and unit-tested; scenes.ts reads the photos and makes the scene.
 */

import { boundingBox } from '../../src/engine/stages/mask-ops.js';

export type Point = [number, number];

export type PropName = 'hanger' | 'rail' | 'hand';

/** The product's box in the garment's own pixels (the clean photo's mask). */
export interface ProductBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Prop {
  name: PropName;
  /** The casual photo it is cut from (dataset/casual), in upright (EXIF-applied) pixels. */
  photo: string;
  /** Outlines traced by hand on the photo; a pixel is the prop's when its centre is inside one. */
  outlines: Point[][];
  /** Behind the product (the product hides part of it) or over it (it hides part of the product). */
  layer: 'behind' | 'over';
  /** The prop's point that meets the product, in the photo's pixels. */
  anchor: Point;
  /** Photo pixels to garment pixels: the prop's scale beside a product of this box. */
  scale: (product: ProductBox, mask: Uint8Array, width: number) => number;
  /** Where the prop's anchor goes on the product, in the garment's pixels. */
  meets: (product: ProductBox, mask: Uint8Array, width: number) => Point;
  /**
   * The prop was cut by its photo's frame (a hand's wrist at the photo's lower left): in a scene
   * those sides run off the frame too, so no cut edge shows. Unset: the prop lies wholly in its photo.
   */
  offFrame?: 'lower-left';
}

const boxWidth = (b: ProductBox) => b.right - b.left + 1;
const boxHeight = (b: ProductBox) => b.bottom - b.top + 1;

/** The middle of the product's top row (its collar or waistband), x and y. */
export function topMiddle(product: ProductBox, mask: Uint8Array, width: number): Point {
  const row = product.top * width;
  let first = -1,
    last = -1;
  for (let x = product.left; x <= product.right; x++)
    if (mask[row + x]) {
      if (first < 0) first = x;
      last = x;
    }
  return [Math.round((first + last) / 2), product.top];
}

/**
 * A point on the product's lower left: in the left 40% of its width, the column that reaches
 * lowest (a hem's corner, a bag's bottom), a tenth of the product's height above that lowest
 * pixel (where a hand holding it from below would grip).
 */
export function lowerLeftGrip(product: ProductBox, mask: Uint8Array, width: number): Point {
  let bestX = product.left,
    lowest = -1;
  const last = Math.round(product.left + 0.4 * (boxWidth(product) - 1));
  for (let x = product.left; x <= last; x++)
    for (let y = product.bottom; y > lowest; y--)
      if (mask[y * width + x]) {
        lowest = y;
        bestX = x;
        break;
      }
  return [bestX, Math.round(lowest - 0.1 * boxHeight(product))];
}

/**
 * The props. Outlines in the photos' pixels, traced on enlarged views with a 10 px grid:
 * - hanger: top_hanger_01's wooden hanger, its hook and both arms down to the tee's collar (the
 *   rest is behind the tee). Hung so its arms' lower edge lies a tenth of the product's height
 *   below its top, the arms spanning 45% of its width: the hook and the arms' tops show above
 *   the collar and shoulders, as on a tee on a hanger.
 * - rail: bottom_hanger_01's clothes rail (the top bar across the photo) and the wire hanger's
 *   hook that hangs the joggers from it; the hook's foot meets the product's top middle, the bar
 *   as long beside the product as beside the joggers (three times its width: it runs off the
 *   scene, as a rail does).
 * - hand: headwear_inhand_01's hand, from the wrist at the photo's lower left to the fingers round
 *   the cap's brim; its fingertips over the product's lower left, the hand 45% of its height, and
 *   its wrist off the scene's lower left corner as in the photo (the scene is placed so).
 */
export const PROPS: Record<PropName, Prop> = {
  hanger: {
    name: 'hanger',
    photo: 'top_hanger_01.jpg',
    outlines: [
      [
        [160, 0],
        [176, 0],
        [180, 20],
        [184, 30],
        [200, 35],
        [225, 45],
        [245, 55],
        [250, 62],
        [246, 66],
        [220, 62],
        [195, 60],
        [170, 60],
        [150, 63],
        [128, 72],
        [125, 64],
        [130, 55],
        [150, 44],
        [168, 34],
        [166, 22],
      ],
    ],
    layer: 'behind',
    anchor: [187, 64],
    scale: (b) => (0.45 * boxWidth(b)) / 125,
    meets: (b, mask, width) => {
      const [x] = topMiddle(b, mask, width);
      return [x, Math.round(b.top + 0.1 * boxHeight(b))];
    },
  },
  rail: {
    name: 'rail',
    photo: 'bottom_hanger_01.jpg',
    outlines: [
      [
        [0, 4],
        [400, 10],
        [400, 21],
        [0, 14],
      ],
      [
        [210, 16],
        [215, 16],
        [215, 30],
        [217, 32],
        [218, 44],
        [223, 44],
        [223, 54],
        [220, 54],
        [219, 47],
        [206, 47],
        [205, 54],
        [202, 54],
        [202, 44],
        [208, 42],
        [209, 31],
        [210, 29],
      ],
    ],
    layer: 'behind',
    anchor: [212, 52],
    scale: (b) => boxWidth(b) / 130,
    meets: topMiddle,
  },
  hand: {
    name: 'hand',
    photo: 'headwear_inhand_01.jpg',
    outlines: [
      [
        [0, 348],
        [30, 337],
        [60, 323],
        [80, 315],
        [95, 313],
        [110, 320],
        [125, 330],
        [140, 345],
        [142, 356],
        [128, 366],
        [150, 382],
        [160, 395],
        [162, 402],
        [170, 412],
        [175, 420],
        [165, 430],
        [150, 440],
        [135, 455],
        [122, 475],
        [110, 495],
        [100, 515],
        [92, 533],
        [0, 533],
      ],
    ],
    layer: 'over',
    offFrame: 'lower-left',
    anchor: [140, 385],
    scale: (b) => (0.45 * boxHeight(b)) / 220,
    meets: lowerLeftGrip,
  },
};

/**
 * The outlines filled, as a mask (255 inside, 0 outside) of `width` x `height`: a pixel is
 * inside when its centre is, by the even-odd rule (each outline closed from its last point to its
 * first).
 */
export function fillOutlines(outlines: Point[][], width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  const crossings: number[] = [];
  for (let y = 0; y < height; y++) {
    const cy = y + 0.5;
    crossings.length = 0;
    for (const outline of outlines)
      for (let i = 0; i < outline.length; i++) {
        const [x0, y0] = outline[i]!;
        const [x1, y1] = outline[(i + 1) % outline.length]!;
        // half-open in y, so a vertex on the row is counted once
        if (y0 <= cy === y1 <= cy) continue;
        crossings.push(x0 + ((cy - y0) / (y1 - y0)) * (x1 - x0));
      }
    crossings.sort((a, b) => a - b);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const from = Math.max(0, Math.ceil(crossings[k]! - 0.5)),
        to = Math.min(width - 1, Math.floor(crossings[k + 1]! - 0.5));
      for (let x = from; x <= to; x++) mask[y * width + x] = 255;
    }
  }
  return mask;
}

/**
 * The box of a mask's set pixels, its right and bottom the last set column and row (inclusive,
 * as the props' rules read it), or null when it has none: mask-ops' `boundingBox`, whose right and
 * bottom are one past.
 */
export function maskBox(mask: Uint8Array, width: number, height: number): ProductBox | null {
  const b = boundingBox({ data: mask, width, height });
  return b && { left: b.left, top: b.top, right: b.right - 1, bottom: b.bottom - 1 };
}

export interface Layer {
  /** RGBA, 4 bytes a pixel, not premultiplied. */
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * Paints `src` over `dst` (both RGBA, not premultiplied) with its top left at (left, top) of
 * `dst`; what falls outside `dst` is clipped. Porter-Duff "over".
 */
export function paintOver(dst: Layer, src: Layer, left: number, top: number): void {
  const x0 = Math.max(0, left),
    y0 = Math.max(0, top),
    x1 = Math.min(dst.width, left + src.width),
    y1 = Math.min(dst.height, top + src.height);
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      const s = ((y - top) * src.width + (x - left)) * 4,
        d = (y * dst.width + x) * 4;
      const as = src.data[s + 3]! / 255;
      if (as === 0) continue;
      const ad = dst.data[d + 3]! / 255;
      const a = as + ad * (1 - as);
      for (let c = 0; c < 3; c++)
        dst.data[d + c] = Math.round((src.data[s + c]! * as + dst.data[d + c]! * ad * (1 - as)) / a);
      dst.data[d + 3] = Math.round(a * 255);
    }
}
