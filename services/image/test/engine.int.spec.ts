import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import sharp from 'sharp';
import { createEngine, type Engine } from '../src/engine/index.js';
import { boundingBox } from '../src/engine/stages/mask-ops.js';
import { iou } from '../tools/eval/metrics.js';

/** The real ISNet model on real photos (test/fixtures, made by tools/make-fixtures.ts). */
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('engine with the ISNet model', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine();
  });
  afterAll(async () => engine.close());

  it('cuts out a casual top close to its reference mask, on pure white', async () => {
    const r = await engine.enhance(await readFile(fixture('top_floor_01.jpg')), {
      type: 'tops',
      size: 1024,
      preset: 'amazon',
    });
    const mask = r.geometry.mask!;
    // the photo is stored turned, with EXIF orientation 6; its mask (made without the model) is upright
    const gt = await sharp(fixture('top_floor_01_mask.png'))
      .resize(mask.width, mask.height, { fit: 'fill' })
      .extractChannel(0)
      .raw()
      .toBuffer();
    const score = iou(mask, { data: new Uint8Array(gt), width: mask.width, height: mask.height });
    assert.ok(score >= 0.9, `IoU ${score}`);
    assert.deepEqual([r.width, r.height], [1024, 1024]);
    const { data } = await sharp(r.full).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([...data.subarray(0, 3)], [255, 255, 255]);
    const fill = r.checks.find((c) => c.rule.startsWith('product fills'))!;
    assert.equal(fill.pass, true, fill.detail);
    assert.equal(r.checks.find((c) => c.rule === 'background RGB 255')!.pass, true);
  });

  it('keeps both shoes of a pair', async () => {
    const r = await engine.enhance(await readFile(fixture('shoes_pair_02.jpg')), {
      type: 'two_shoe',
      size: 800,
      format: 'png',
    });
    assert.equal(r.geometry.recipe, 'shoes/two_shoe');
    // the two shoes stand side by side across about half of the photo; one shoe alone is under a third
    const m = r.geometry.mask!;
    const b = boundingBox(m)!;
    assert.ok((b.right - b.left) / m.width > 0.4, `mask spans ${(b.right - b.left) / m.width} of the width`);
  });
});
