import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import sharp from 'sharp';
import { createEngine, EngineError } from './index.js';
import { boundingBox } from './stages/mask-ops.js';
import { threadsForEngines } from './model/threads.js';
import { principalCorrection, symmetryAxis } from './stages/straighten.js';
import { drawnPhoto, rotatedRect, ThresholdModel, tshirt } from './testing/fixtures.js';
import type { Mask } from './types.js';

/** The product's mask in a delivered image: anything clearly darker than the background. */
async function productMask(file: Buffer): Promise<Mask> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const m = new Uint8Array(info.width * info.height);
  for (let p = 0; p < m.length; p++) m[p] = data[p * 3 + 2]! < 200 ? 255 : 0;
  return { data: m, width: info.width, height: info.height };
}

describe('engine (stand-in model)', () => {
  it('brings a rotated rectangle back level and centred', async () => {
    const engine = await createEngine({ model: new ThresholdModel() });
    const photo = await drawnPhoto(600, 400, rotatedRect(230, 210, 300, 120, 11));
    const r = await engine.enhance(photo, { type: 'side_view', size: 800, format: 'png' });
    assert.deepEqual([r.width, r.height], [800, 600]);
    assert.ok(Math.abs(r.geometry.rotationDeg + 11) < 0.6, `rotation ${r.geometry.rotationDeg}`);
    const m = await productMask(r.full);
    assert.ok(Math.abs(principalCorrection(m).deg) < 1, 'level');
    const b = boundingBox(m)!;
    assert.ok(Math.abs((b.left + b.right) / 2 - r.width / 2) <= 0.01 * r.width, `centred x ${JSON.stringify(b)}`);
    assert.ok(Math.abs((b.top + b.bottom) / 2 - r.height / 2) <= 0.01 * r.height, 'centred y');
    await engine.close();
  });

  it("gives libvips as many threads per image as ONNX Runtime has, not sharp's one on glibc", async () => {
    sharp.concurrency(threadsForEngines(1).threads + 5); // a count no budget here gives: the engine's own setting shows
    for (const engines of [1, 2]) {
      const engine = await createEngine({ model: new ThresholdModel(), engines });
      assert.equal(sharp.concurrency(), threadsForEngines(engines).threads);
      await engine.close();
    }
  });

  it('levels a tilted garment by its symmetry and centres its axis', async () => {
    const engine = await createEngine({ model: new ThresholdModel() });
    const photo = await drawnPhoto(500, 500, tshirt(280, 260, 260, -9), 'jpeg');
    const r = await engine.enhance(photo, { type: 'tops', size: 1000 });
    assert.ok(Math.abs(r.geometry.rotationDeg - 9) <= 1, `rotation ${r.geometry.rotationDeg}`);
    const axis = symmetryAxis(await productMask(r.full)).x;
    assert.ok(Math.abs(axis - r.width / 2) <= 0.015 * r.width, `axis ${axis} of ${r.width}`);
  });

  it('says in checks when the product runs off the frame, and that a clean rotation was confirmed', async () => {
    const engine = await createEngine({ model: new ThresholdModel() });
    const inside = await engine.enhance(await drawnPhoto(500, 500, tshirt(250, 250, 260, -9)), { type: 'tops' });
    assert.deepEqual(
      inside.checks.map((c) => [c.rule, c.pass]),
      [
        ['product inside the frame', true],
        ['level confirmed', true],
      ],
    );
    // the same shirt moved right until a sleeve runs off the photo's right edge
    const cut = await engine.enhance(await drawnPhoto(500, 500, tshirt(380, 250, 260, 0)), { type: 'tops' });
    const frame = cut.checks.find((c) => c.rule === 'product inside the frame')!;
    assert.equal(frame.pass, false);
    assert.match(frame.detail, /right/);
    await engine.close();
  });

  it('delivers full, thumbnail and a small preview; pure white background', async () => {
    const engine = await createEngine({ model: new ThresholdModel() });
    const r = await engine.enhance(await drawnPhoto(300, 300, rotatedRect(150, 150, 120, 160, 0)), {
      size: 1024,
      preset: 'amazon',
    });
    const meta = await Promise.all([r.full, r.thumbnail, r.preview].map((b) => sharp(b).metadata()));
    assert.equal(meta[0]!.format, 'jpeg');
    assert.ok(Math.max(meta[1]!.width!, meta[1]!.height!) <= 384);
    assert.ok(Math.max(meta[2]!.width!, meta[2]!.height!) <= 512);
    const { data } = await sharp(r.full).raw().toBuffer({ resolveWithObject: true });
    assert.deepEqual([...data.subarray(0, 3)], [255, 255, 255]);
    const failed = r.checks.filter((c) => !c.pass).map((c) => c.rule);
    assert.deepEqual(failed, ['long side >= 1600 px'], 'only the size rule fails at 1024 px');
    for (const stage of ['decode', 'segment', 'inference', 'mask', 'straighten', 'compose', 'finish', 'deliver'])
      assert.ok(stage in r.timings, stage);
  });

  it('writes transparent PNG, grey backgrounds and other formats', async () => {
    const engine = await createEngine({ model: new ThresholdModel() });
    const photo = await drawnPhoto(200, 200, rotatedRect(100, 100, 80, 100, 0));
    const t = await engine.enhance(photo, { transparent: true, size: 256 });
    const tm = await sharp(t.full).metadata();
    assert.equal(tm.format, 'png');
    assert.equal(tm.hasAlpha, true);
    const corner = await sharp(t.full).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    assert.equal(corner[3], 0);
    const g = await engine.enhance(photo, { background: 'grey', size: 256, format: 'webp' });
    assert.equal((await sharp(g.full).metadata()).format, 'webp');
    const avif = await engine.enhance(photo, { size: 256, format: 'avif' });
    assert.equal((await sharp(avif.full).metadata()).format, 'heif');
  });

  it('crops details instead of cutting them out', async () => {
    const engine = await createEngine({ model: new ThresholdModel() });
    const r = await engine.enhance(await drawnPhoto(400, 300, rotatedRect(300, 100, 60, 60, 0)), {
      type: 'logo_detail',
      size: 300,
    });
    assert.deepEqual([r.width, r.height], [300, 300]);
    assert.equal(r.geometry.recipe, 'details/logo_detail');
  });

  it('refuses bad options and an empty scene with typed errors', async () => {
    const engine = await createEngine({ model: new ThresholdModel() });
    const photo = await drawnPhoto(100, 100, () => false);
    await assert.rejects(
      engine.enhance(photo, { size: 9000 }),
      (e: unknown) => e instanceof EngineError && e.code === 'INVALID_OPTIONS',
    );
    await assert.rejects(
      engine.enhance(photo, {}),
      (e: unknown) => e instanceof EngineError && e.code === 'NO_PRODUCT_FOUND',
    );
    await engine.close();
    await assert.rejects(
      engine.enhance(photo, {}),
      (e: unknown) => e instanceof EngineError && e.code === 'ENGINE_CLOSED',
    );
  });
});
