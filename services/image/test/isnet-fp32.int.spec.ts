import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { defaultModelPath, repoRoot } from '../src/engine/model/isnet-assets.js';
import { FLOAT16, summarizeModel } from '../src/engine/model/onnx-wire.fixtures.js';
import { loadSegmentationModel } from '../src/engine/model/session.js';
import { toModelInput } from '../src/engine/stages/segment.js';

/** The float32 copy of the shipped ISNet model against the shipped float16 file. */
const photo = path.resolve(repoRoot(), '../shared/datasets/garments/casual/top_floor_04.jpg');

describe('ISNet widened to float32', () => {
  it('is the same network with twice the weight bytes and no float16 left', () => {
    const fp16 = defaultModelPath({ precision: 'fp16' });
    const fp32 = defaultModelPath();
    assert.notEqual(fp32, fp16);
    assert.match(path.basename(fp32), /^isnet-medium-[0-9a-f]{16}-fp32\.onnx$/);
    const ratio = statSync(fp32).size / statSync(fp16).size;
    assert.ok(ratio > 1.95 && ratio < 2.01, `fp32 file is ${ratio.toFixed(3)}x the fp16 file`);

    const before = summarizeModel(readFileSync(fp16));
    const after = summarizeModel(readFileSync(fp32));
    assert.equal(after.tensors.filter((t) => t.dataType === FLOAT16).length, 0);
    assert.equal(after.castTo.filter((to) => to === FLOAT16).length, 0);
    assert.equal([...after.elemTypes.values()].filter((t) => t === FLOAT16).length, 0);
    // the same graph: the same tensors by name and shape, the same nodes
    assert.deepEqual(after.tensors.map((t) => [t.name, t.dims]), before.tensors.map((t) => [t.name, t.dims]));
    assert.deepEqual([...after.opTypes], [...before.opTypes]);
    assert.deepEqual([...after.elemTypes.keys()], [...before.elemTypes.keys()]);
  });

  it('segments a photo as the shipped model does', async () => {
    const fp16 = await loadSegmentationModel(defaultModelPath({ precision: 'fp16' }));
    const fp32 = await loadSegmentationModel(defaultModelPath());
    const s = fp32.inputSize;
    const rgb = await sharp(photo).resize(s, s, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    const input = toModelInput(rgb, s);
    const a = await fp16.run(input);
    const b = await fp32.run(input);
    assert.equal(a.length, s * s);
    assert.equal(b.length, s * s);
    let inter = 0, union = 0, maxDiff = 0, sumDiff = 0, foreground = 0;
    for (let i = 0; i < a.length; i++) {
      const x = a[i]! >= 0.5, y = b[i]! >= 0.5;
      if (x && y) inter++;
      if (x || y) union++;
      if (x) foreground++;
      const d = Math.abs(a[i]! - b[i]!);
      maxDiff = Math.max(maxDiff, d);
      sumDiff += d;
    }
    assert.ok(foreground > 0.05 * a.length, `the shipped model finds the garment (${foreground} px)`);
    const detail = `IoU ${inter / union}, probability difference mean ${sumDiff / a.length} max ${maxDiff}`;
    assert.ok(inter / union >= 0.99, detail);
    // a wrong weight in one layer could keep the IoU; it would not keep the probabilities this close
    assert.ok(sumDiff / a.length <= 1e-3, detail);
  });
});
