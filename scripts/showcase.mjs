#!/usr/bin/env node
// Makes the home page's before/after showcase: ten photos of the garment dataset that are CC0 or
// CC BY (SOURCES.md of the dataset), each enhanced by this product's engine (`npm run enhance`),
// both sides saved as WebP masters of 480 px in web/showcase/, and the list with credits in
// web/src/features/content/showcase-pairs.json (each side by its master's name). The web build makes
// the served images from the masters: AVIF and WebP at each width (web/build/showcase-images.ts,
// cached between builds; ADR 0715). Usage:
//   node scripts/showcase.mjs <dataset folder: the one holding casual/>
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

const repoRoot = resolve(import.meta.dirname, '..');
const dataset = process.argv[2] ?? process.env.FLATLAY_DATASET;
if (!dataset) {
  console.error('usage: node scripts/showcase.mjs <dataset folder holding casual/>');
  process.exit(2);
}

// Only CC0 (alexeygrigorev/clothing-dataset) and CC BY 4.0 (google/dreambooth) photos: the
// dataset's licence table says these alone may be shipped. Credits as CC BY asks.
const CC0 = 'CC0 1.0, alexeygrigorev/clothing-dataset';
const PAIRS = [
  { file: 'top_bed_01.jpg', type: 'tops', what: 'T-shirt on a bedsheet', credit: CC0 },
  { file: 'top_carpet_01.jpg', type: 'tops', what: 'Printed T-shirt on a carpet', credit: CC0 },
  { file: 'top_hanger_02.jpg', type: 'tops', what: 'T-shirt on a hanger', credit: CC0 },
  { file: 'bottom_floor_02.jpg', type: 'bottoms', what: 'Skirt on a wooden floor', credit: CC0 },
  { file: 'bottom_bed_01.jpg', type: 'bottoms', what: 'Track pants on bedding', credit: CC0 },
  { file: 'shoes_pair_02.jpg', type: 'two_shoe', what: 'Running shoes on the floor', credit: CC0 },
  { file: 'headwear_02.jpg', type: 'accessory_headwear', what: 'Straw hat on a floor', credit: CC0 },
  { file: 'accessory_gloves_01.jpg', type: 'accessory', what: 'Leather gloves on wood', credit: CC0 },
  {
    file: 'bag_02.jpg',
    type: 'bags_belts',
    what: 'Kids backpack on a table',
    credit: 'CC BY 4.0, photo by Y. Li, DreamBooth dataset (Ruiz et al. 2023)',
  },
  {
    file: 'shoes_side_02.jpg',
    type: 'side_view',
    what: 'Sneaker on asphalt',
    credit: 'CC BY 4.0, photo by N. Ruiz, DreamBooth dataset (Ruiz et al. 2023)',
  },
];
const SIZE = 480;

const outDir = join(repoRoot, 'web', 'showcase');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'flatlay-showcase-'));
const list = [];
try {
  for (const [i, p] of PAIRS.entries()) {
    const n = String(i + 1).padStart(2, '0');
    const input = join(dataset, 'casual', p.file);
    const out = join(work, n);
    execFileSync(
      'npm',
      ['run', '-s', 'enhance', '--', '--type', p.type, '--size', String(SIZE), '--format', 'png', '--out', out, input],
      { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const [result] = readdirSync(out);
    if (result === undefined) throw new Error(`enhance wrote nothing into ${out}`);
    await sharp(input)
      .rotate()
      .resize(SIZE, SIZE, { fit: 'inside' })
      .webp({ quality: 70 })
      .toFile(join(outDir, `${n}-before.webp`));
    await sharp(join(out, result))
      .webp({ quality: 75 })
      .toFile(join(outDir, `${n}-after.webp`));
    list.push({
      before: `${n}-before`,
      after: `${n}-after`,
      what: p.what,
      credit: p.credit,
    });
    console.log(`${n} ${p.file} (${p.type})`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
writeFileSync(join(repoRoot, 'web/src/features/content/showcase-pairs.json'), `${JSON.stringify(list, null, 2)}\n`);
const bytes = readdirSync(outDir).reduce((sum, f) => sum + statSync(join(outDir, f)).size, 0);
console.log(
  `showcase: ${list.length} pairs, ${(bytes / 1024).toFixed(0)} KB of masters in web/showcase (limit 1.5 MB)`,
);
if (bytes > 1.5 * 1024 * 1024) process.exit(1);
