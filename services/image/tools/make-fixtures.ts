import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { datasetFolder } from './dataset.js';

/**
 * Makes the photos the image service's tests use (services/image/test/fixtures/) from the garments
 * dataset, so the tests need nothing beside the checkout:
 *   node --conditions=source --import tsx services/image/tools/make-fixtures.ts [/path/to/garments]
 * Only CC0 photos of the dataset are used (credited in NOTICE). Each is re-encoded with sharp
 * (metadata stripped) to a JPEG with its long side at most 800 px.
 */
interface Fixture {
  /** File in the dataset's casual/ folder, and the fixture's name. */
  name: string;
  /**
   * Stored turned a quarter left and tagged EXIF orientation 6 ("turn right to view"), as a phone
   * camera stores a portrait shot, so the tests check the engine applies the tag.
   */
  exifOrientation6?: boolean;
  /** Also write `<stem>_mask.png`: the garment's mask in the upright photo (see darkGarmentMask). */
  referenceMask?: boolean;
}

const FIXTURES: Fixture[] = [
  { name: 'shoes_pair_02.jpg' }, // pair of knit running shoes on a floor, seen from above
  { name: 'headwear_01.jpg' }, // red cap on grey patterned fabric
  { name: 'top_floor_01.jpg', exifOrientation6: true, referenceMask: true }, // black sports T-shirt on a light wooden floor
];

const LONG_SIDE = 800;
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures');

/**
 * A reference mask made without the model: the T-shirt is dark (black and dark grey) on a light
 * wooden floor, so its pixels are the dark ones. The largest dark region is kept, closed over
 * its thin white stripes and logo (a 7 px disc), its holes filled, and its edge smoothed. It was
 * checked by eye against the photo.
 */
async function darkGarmentMask(upright: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(upright).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  const dark = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++)
    dark[i] = 0.299 * data[3 * i]! + 0.587 * data[3 * i + 1]! + 0.114 * data[3 * i + 2]! < 150 ? 1 : 0;
  const garment = close(largestRegion(dark, w, h), w, h, 7);
  const mask = Buffer.alloc(w * h);
  const outside = reachableFromBorder(garment, w, h);
  for (let i = 0; i < w * h; i++) mask[i] = outside[i] ? 0 : 255;
  return sharp(mask, { raw: { width: w, height: h, channels: 1 } })
    .median(5)
    .toColourspace('b-w')
    .png()
    .toBuffer();
}

function neighbours(p: number, w: number, h: number): number[] {
  const x = p % w,
    y = (p - x) / w;
  return [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, y > 0 ? p - w : -1, y < h - 1 ? p + w : -1].filter((q) => q >= 0);
}

function largestRegion(on: Uint8Array, w: number, h: number): Uint8Array {
  const label = new Int32Array(w * h).fill(-1);
  let best = -1,
    bestSize = 0;
  for (let start = 0, next = 0; start < w * h; start++) {
    if (!on[start] || label[start]! >= 0) continue;
    const stack = [start];
    label[start] = next;
    let size = 0;
    while (stack.length) {
      const p = stack.pop()!;
      size++;
      for (const q of neighbours(p, w, h)) {
        if (on[q] && label[q]! < 0) {
          label[q] = next;
          stack.push(q);
        }
      }
    }
    if (size > bestSize) {
      bestSize = size;
      best = next;
    }
    next++;
  }
  return Uint8Array.from(label, (l) => (l === best ? 1 : 0));
}

/** Morphological closing (dilate, then erode) with a disc of radius r. */
function close(m: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const disc: [number, number][] = [];
  for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (dx * dx + dy * dy <= r * r) disc.push([dx, dy]);
  const filter = (src: Uint8Array, grow: boolean) => {
    const dst = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const hit = disc.some(([dx, dy]) => {
          const X = x + dx,
            Y = y + dy;
          const v = X >= 0 && Y >= 0 && X < w && Y < h ? src[Y * w + X] : 0;
          return grow ? v === 1 : v !== 1;
        });
        dst[y * w + x] = grow ? (hit ? 1 : 0) : hit ? 0 : 1;
      }
    }
    return dst;
  };
  return filter(filter(m, true), false);
}

/** Pixels outside the garment that connect to the photo's border; the rest are garment or holes in it. */
function reachableFromBorder(garment: Uint8Array, w: number, h: number): Uint8Array {
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  for (let x = 0; x < w; x++) stack.push(x, (h - 1) * w + x);
  for (let y = 0; y < h; y++) stack.push(y * w, y * w + w - 1);
  while (stack.length) {
    const p = stack.pop()!;
    if (seen[p] || garment[p]) continue;
    seen[p] = 1;
    stack.push(...neighbours(p, w, h));
  }
  return seen;
}

async function main() {
  const dataset = datasetFolder(process.argv[2], 'make-fixtures');
  await mkdir(out, { recursive: true });
  for (const f of FIXTURES) {
    const source = await readFile(path.join(dataset, 'casual', f.name));
    const upright = await sharp(source)
      .rotate()
      .resize({ width: LONG_SIDE, height: LONG_SIDE, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
    const stored = f.exifOrientation6 ? sharp(upright).rotate(270).withMetadata({ orientation: 6 }) : sharp(upright);
    const jpeg = await stored.jpeg({ quality: 88 }).toBuffer();
    await writeFile(path.join(out, f.name), jpeg);
    const written = [`${f.name} ${jpeg.length} bytes`];
    if (f.referenceMask) {
      const mask = await darkGarmentMask(upright);
      const maskName = f.name.replace(/\.jpg$/, '_mask.png');
      await writeFile(path.join(out, maskName), mask);
      written.push(`${maskName} ${mask.length} bytes`);
    }
    process.stdout.write(`${written.join(', ')}\n`);
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
