import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import sharp from 'sharp';
import { defaultModelPath, shippedModelPath } from '../src/engine/model/isnet-assets.js';
import { FLOAT16, summarizeModel } from '../src/engine/model/onnx-wire.fixtures.js';
import { loadSegmentationModel } from '../src/engine/model/session.js';
import { toModelInput } from '../src/engine/stages/segment.js';

/** The prepared copies of the shipped ISNet model (float32 for CPU, float16 for CUDA) against the shipped file. */
const photo = fileURLToPath(new URL('./fixtures/top_floor_01.jpg', import.meta.url));

describe('ISNet widened to float32 for CPU', () => {
  it('is the same network with float32 weights, no float16 left, and only the mask as output', () => {
    const fp16 = shippedModelPath();
    const fp32 = defaultModelPath();
    assert.notEqual(fp32, fp16);
    assert.notEqual(defaultModelPath({ precision: 'fp16' }), fp16, 'CUDA runs a prepared copy too');
    assert.match(path.basename(fp32), /^isnet-medium-[0-9a-f]{16}-fp32-w\d+\.onnx$/);
    const ratio = statSync(fp32).size / statSync(defaultModelPath({ precision: 'fp16' })).size;
    // twice the bytes per weight, less the few weights only the dropped side outputs used
    assert.ok(ratio > 1.9 && ratio < 2.01, `fp32 file is ${ratio.toFixed(3)}x the fp16 file`);

    const before = summarizeModel(readFileSync(fp16));
    const after = summarizeModel(readFileSync(fp32));
    assert.equal(after.tensors.filter((t) => t.dataType === FLOAT16).length, 0);
    assert.equal(after.castTo.filter((to) => to === FLOAT16).length, 0);
    assert.equal([...after.elemTypes.values()].filter((t) => t === FLOAT16).length, 0);
    // the same graph less the side outputs: a subset of the tensors by name and shape, every
    // convolution of the encoder and decoder still there
    // (less the few int64 constants the free input size adds: free-input-size.ts)
    const initializers = (m: typeof before) =>
      m.tensors.filter((t) => t.where === 'graph.initializer' && !t.name.startsWith('flatlay_free_size/'));
    const shapes = new Map(initializers(before).map((t) => [t.name, JSON.stringify(t.dims)]));
    for (const t of initializers(after)) assert.equal(JSON.stringify(t.dims), shapes.get(t.name), `tensor ${t.name}`);
    const kept = initializers(after).length,
      shipped = initializers(before).length;
    assert.ok(kept < shipped && kept >= shipped - 10, `${kept} of ${shipped} weights kept`);
    assert.ok(
      after.opTypes.get('Conv')! >= before.opTypes.get('Conv')! - 5,
      'at most the five side-output convolutions dropped',
    );
    const names = [...after.elemTypes.keys()];
    assert.ok(names.includes('input') && names.includes('output'), names.join(','));
  });

  it('segments a photo as the shipped model does', async () => {
    const fp16 = await loadSegmentationModel({ modelPath: shippedModelPath() });
    assert.equal(fp16.inputSize, 1024, 'a model with a fixed input runs at its own size');
    const fp32 = await loadSegmentationModel({ modelPath: defaultModelPath(), inputSize: 1024 });
    const s = fp32.inputSize;
    const rgb = await sharp(photo).resize(s, s, { fit: 'fill' }).removeAlpha().raw().toBuffer();
    const input = toModelInput(rgb, s);
    const a = await fp16.run(input);
    const b = await fp32.run(input);
    assert.equal(a.length, s * s);
    assert.equal(b.length, s * s);
    let inter = 0,
      union = 0,
      maxDiff = 0,
      sumDiff = 0,
      foreground = 0;
    for (let i = 0; i < a.length; i++) {
      const x = a[i]! >= 0.5,
        y = b[i]! >= 0.5;
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

  it('runs at a smaller input size, and finds the same garment', async () => {
    const at1024 = await loadSegmentationModel({ modelPath: defaultModelPath(), inputSize: 1024 });
    const at768 = await loadSegmentationModel({ modelPath: defaultModelPath(), inputSize: 768 });
    const fp16at640 = await loadSegmentationModel({
      modelPath: defaultModelPath({ precision: 'fp16' }),
      inputSize: 640,
    });
    assert.equal(at768.inputSize, 768);
    const big = await at1024.run(
      toModelInput(await sharp(photo).resize(1024, 1024, { fit: 'fill' }).raw().toBuffer(), 1024),
    );
    for (const model of [at768, fp16at640]) {
      const s = model.inputSize;
      const out = await model.run(toModelInput(await sharp(photo).resize(s, s, { fit: 'fill' }).raw().toBuffer(), s));
      assert.equal(out.length, s * s);
      let inter = 0,
        union = 0;
      for (let y = 0; y < s; y++)
        for (let x = 0; x < s; x++) {
          const a = out[y * s + x]! >= 0.5,
            b = big[Math.floor(((y + 0.5) * 1024) / s) * 1024 + Math.floor(((x + 0.5) * 1024) / s)]! >= 0.5;
          if (a && b) inter++;
          if (a || b) union++;
        }
      assert.ok(inter / union >= 0.95, `IoU at ${s} against 1024: ${inter / union}`);
    }
  });
});
