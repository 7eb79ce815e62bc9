import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, it } from 'vitest';
import { createEngine, EngineError } from '../src/engine/index.js';
import type { ManifestInput } from '../src/engine/model/manifest.js';
import { cudaProviderInstalled, loadSegmentationModel } from '../src/engine/model/session.js';
import { type TinySegmenter, tinySegmenter } from '../src/engine/model/tiny-segmenter.fixtures.js';
import { probabilityPlane } from '../src/engine/stages/segment.js';

/**
 * MODEL_PATH with an operator's model and its manifest (model/manifest.ts), on a model made here:
 * a 1x1 convolution whose output is a known function of one input plane (tiny-segmenter.fixtures.ts).
 */
const dir = mkdtempSync(path.join(tmpdir(), 'flatlay-own-model-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** Writes the model and (unless null) its manifest beside it; a fresh file name each time (sessions are cached per file). */
function ownModel(model: TinySegmenter, manifest: Partial<ManifestInput> | Record<string, unknown> | null): string {
  const file = path.join(dir, `model-${++files}.onnx`);
  writeFileSync(file, tinySegmenter(model));
  if (manifest)
    writeFileSync(
      file.replace(/\.onnx$/, '.json'),
      JSON.stringify({ name: 'tiny', licence: 'MIT', mean: [0, 0, 0], std: [1, 1, 1], ...manifest }),
    );
  return file;
}

const redIsProbability: TinySegmenter = { size: 'free', weights: [1, 0, 0], bias: 0 };
const redIsLogit: TinySegmenter = { size: 'free', weights: [20, 0, 0], bias: -10 };

/** A square of packed RGB whose pixel i has first channel i % 256 (others fixed). */
function ramp(side: number, g = 7, b = 200): Buffer {
  const rgb = Buffer.alloc(side * side * 3);
  for (let i = 0; i < side * side; i++) rgb.set([i % 256, g, b], i * 3);
  return rgb;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

describe('bring your own model (MODEL_PATH with a manifest)', () => {
  it('reads probabilities as they are, at the size the manifest fixes', async () => {
    const model = await loadSegmentationModel({
      modelPath: ownModel({ ...redIsProbability, size: 64 }, { inputSize: 64, output: 'probabilities' }),
      cuda: '0',
      inputSize: 576,
    });
    assert.equal(model.inputSize, 64);
    assert.match(model.runtime!.warnings.join(), /fixed at 64 px/);
    assert.deepEqual(model.runtime!.model, { name: 'tiny', licence: 'MIT' });
    const plane = await probabilityPlane(ramp(64), model);
    // value / 255 with mean 0 and std 1 is the probability itself: the plane gives back the red channel
    for (let i = 0; i < plane.length; i++) assert.equal(plane[i], i % 256, `pixel ${i}`);
  });

  it('turns logits into probabilities with a sigmoid, at the engine size when the input is free', async () => {
    const model = await loadSegmentationModel({
      modelPath: ownModel(redIsLogit, { inputSize: 'free', output: 'logits' }),
      cuda: '0',
      inputSize: 256,
    });
    assert.equal(model.inputSize, 256);
    assert.equal(model.atSize?.(320)?.inputSize, 320, 'a free model runs at any side (crop-first)');
    const plane = await probabilityPlane(ramp(256), model);
    for (const v of [0, 100, 127, 128, 160, 255]) {
      const want = Math.round(255 * sigmoid((20 * v) / 255 - 10));
      assert.ok(Math.abs(plane[v]! - want) <= 1, `red ${v}: ${plane[v]} against ${want}`);
    }
    // read as probabilities, the logit near 0 would clamp to 0 instead of about one half
    assert.ok(plane[128]! > 100 && plane[128]! < 155, `red 128 is unsure: ${plane[128]}`);
  });

  it('feeds the planes in the order and normalisation the manifest says', async () => {
    const model = await loadSegmentationModel({
      // bgr: the model's first plane is blue; mean 0.5 and std 0.5 put blue 255 at 1 and blue 0 at -1
      modelPath: ownModel(
        { size: 'free', weights: [0.5, 0, 0], bias: 0.5 },
        { inputSize: 'free', output: 'probabilities', channelOrder: 'bgr', mean: [0.5, 0, 0], std: [0.5, 1, 1] },
      ),
      cuda: '0',
      inputSize: 256,
    });
    const rgb = Buffer.alloc(256 * 256 * 3);
    for (let i = 0; i < 256 * 256; i++) rgb.set([255 - (i % 256), 99, i % 256], i * 3); // blue = i % 256
    const plane = await probabilityPlane(rgb, model);
    for (const v of [0, 64, 200, 255]) assert.ok(Math.abs(plane[v]! - v) <= 1, `blue ${v}: ${plane[v]}`);
  });

  it('reads the output the manifest names by its index, -1 the last (a model with several outputs)', async () => {
    // two outputs: the logit first, its sigmoid last (BiRefNet's exports answer several predictions, the mask last)
    const twoOutputs: TinySegmenter = { ...redIsLogit, sigmoidOutput: 'probability' };
    const planeFor = async (manifest: Partial<ManifestInput>) =>
      probabilityPlane(
        ramp(256),
        await loadSegmentationModel({
          modelPath: ownModel(twoOutputs, { inputSize: 'free', ...manifest }),
          cuda: '0',
          inputSize: 256,
        }),
      );
    const last = await planeFor({ output: 'probabilities', outputIndex: -1 });
    const first = await planeFor({ output: 'logits', outputIndex: 0 });
    const firstAsProbabilities = await planeFor({ output: 'probabilities', outputIndex: 0 });
    const unset = await planeFor({ output: 'probabilities' });
    for (const v of [0, 100, 127, 128, 160, 255]) {
      const want = Math.round(255 * sigmoid((20 * v) / 255 - 10));
      assert.ok(Math.abs(last[v]! - want) <= 1, `last output, red ${v}: ${last[v]} against ${want}`);
      assert.ok(Math.abs(first[v]! - want) <= 1, `first output as logits, red ${v}: ${first[v]} against ${want}`);
    }
    // the logit (about +0.04 at red 128) read as a probability is near 0, not about one half: index 0 was read
    assert.ok(firstAsProbabilities[128]! < 20, `first output as probabilities: ${firstAsProbabilities[128]}`);
    assert.ok(unset[128]! < 20, `no index, no "output": the first output (${unset[128]})`);
    await assert.rejects(
      loadSegmentationModel({
        modelPath: ownModel(twoOutputs, { inputSize: 'free', output: 'logits', outputIndex: 2 }),
        cuda: '0',
      }),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'INVALID_CONFIG' &&
        /no output at index 2: the model has 2 \(mask, probability\)/.test(e.message),
    );
  });

  it('runs the whole engine on it: the mask is the red product', async () => {
    const engine = await createEngine({
      modelPath: ownModel(redIsLogit, { inputSize: 'free', output: 'logits' }),
      inferenceSize: 256,
    });
    // a red box on a blue floor: the model's logit is about +8 on the box and -8 on the floor
    const [w, h, box] = [640, 480, { left: 200, top: 120, width: 240, height: 200 }];
    const photo = await sharp({ create: { width: w, height: h, channels: 3, background: { r: 30, g: 90, b: 200 } } })
      .composite([
        {
          input: {
            create: { width: box.width, height: box.height, channels: 3, background: { r: 230, g: 40, b: 30 } },
          },
          left: box.left,
          top: box.top,
        },
      ])
      .png()
      .toBuffer();
    const r = await engine.enhance(photo, { type: 'accessory', size: 512, format: 'png' });
    const mask = r.geometry.mask!;
    const sx = mask.width / w,
      sy = mask.height / h;
    let both = 0,
      either = 0;
    for (let y = 0; y < mask.height; y++)
      for (let x = 0; x < mask.width; x++) {
        const inBox =
          (x + 0.5) / sx >= box.left &&
          (x + 0.5) / sx < box.left + box.width &&
          (y + 0.5) / sy >= box.top &&
          (y + 0.5) / sy < box.top + box.height;
        const inMask = mask.data[y * mask.width + x]! >= 128;
        if (inBox && inMask) both++;
        if (inBox || inMask) either++;
      }
    assert.ok(both / either > 0.97, `IoU ${both / either}`);
    assert.equal(engine.runtime?.model.name, 'tiny');
    await engine.close();
  });

  it('refuses a model without a manifest, naming the file to write', async () => {
    const file = ownModel(redIsProbability, null);
    await assert.rejects(
      loadSegmentationModel({ modelPath: file, cuda: '0' }),
      (e: unknown) =>
        e instanceof EngineError && e.code === 'INVALID_CONFIG' && e.message.includes(file.replace(/\.onnx$/, '.json')),
    );
  });

  it('refuses a manifest with wrong fields, naming each', async () => {
    const file = ownModel(redIsProbability, { inputSize: 'any', output: 'sigmoid', licence: '' });
    await assert.rejects(loadSegmentationModel({ modelPath: file, cuda: '0' }), (e: unknown) => {
      assert.ok(e instanceof EngineError && e.code === 'INVALID_CONFIG');
      for (const field of ['inputSize', 'output', 'licence']) assert.match(e.message, new RegExp(`${field}: `));
      return true;
    });
  });

  it('refuses a manifest that does not match the model', async () => {
    const refused = (model: TinySegmenter, manifest: Partial<ManifestInput>, why: RegExp) =>
      assert.rejects(
        loadSegmentationModel({ modelPath: ownModel(model, manifest), cuda: '0' }),
        (e: unknown) => e instanceof EngineError && e.code === 'INVALID_CONFIG' && why.test(e.message),
      );
    await refused({ ...redIsProbability, size: 64 }, { inputSize: 'free', output: 'probabilities' }, /fixed at 64x64/);
    await refused({ ...redIsProbability, size: 64 }, { inputSize: 128, output: 'probabilities' }, /inputSize 128/);
    await refused(redIsProbability, { inputSize: 'free', output: 'logits', outputName: 'alpha' }, /no output alpha/);
  });

  it('runs on CPU with one warning when CUDA is asked for and its provider is not there, and still gives a result', async () => {
    // this host has no CUDA provider library (and no GPU): asking for CUDA must not fail the engine
    const saved = { MODEL_PATH: process.env.MODEL_PATH, ENGINE_CUDA: process.env.ENGINE_CUDA };
    process.env.MODEL_PATH = ownModel(redIsLogit, { inputSize: 'free', output: 'logits' });
    process.env.ENGINE_CUDA = '1';
    try {
      const engine = await createEngine({ inferenceSize: 256 });
      assert.equal(engine.runtime?.executionProvider, 'cpu');
      assert.equal(engine.runtime?.warnings.length, 1, engine.runtime?.warnings.join(' | '));
      assert.match(engine.runtime!.warnings[0]!, /CUDA.*running on CPU/);
      const photo = await sharp({
        create: { width: 300, height: 200, channels: 3, background: { r: 20, g: 20, b: 20 } },
      })
        .composite([
          { input: { create: { width: 100, height: 80, channels: 3, background: '#e02020' } }, left: 100, top: 60 },
        ])
        .jpeg()
        .toBuffer();
      const r = await engine.enhance(photo, { type: 'accessory', size: 256 });
      assert.equal((await sharp(r.full).metadata()).format, 'jpeg');
      await engine.close();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('runs on CPU with one warning when the CUDA provider is taken as installed but fails to start', async () => {
    // as on a host whose provider library is there but cannot start (no GPU, no driver): here the
    // library is missing, so ONNX Runtime refuses the CUDA session (and prints its own error line)
    const model = await loadSegmentationModel({
      modelPath: ownModel(redIsLogit, { inputSize: 'free', output: 'logits' }),
      cuda: '1',
      inputSize: 256,
      cudaProviderInstalled: () => true,
    });
    assert.equal(model.runtime?.executionProvider, 'cpu');
    assert.equal(model.runtime?.warnings.length, 1, model.runtime?.warnings.join(' | '));
    assert.match(model.runtime!.warnings[0]!, /CUDA execution provider failed to start \(.+\): running on CPU/);
    const plane = await probabilityPlane(ramp(256), model);
    assert.ok(plane[255]! > 250 && plane[0]! < 5, `the model runs on CPU: ${plane[0]}, ${plane[255]}`);
  });

  it('finds the CUDA provider library where onnxruntime-node loads it from', () => {
    const pkg = path.join(dir, 'onnxruntime-node');
    const native = path.join(pkg, 'bin', 'napi-v6', 'linux', 'x64');
    mkdirSync(native, { recursive: true });
    writeFileSync(path.join(native, 'libonnxruntime.so.1'), '');
    assert.equal(cudaProviderInstalled(pkg), false, 'the core alone');
    writeFileSync(path.join(native, 'libonnxruntime_providers_cuda.so'), '');
    assert.equal(cudaProviderInstalled(pkg), process.platform === 'linux' && process.arch === 'x64');
    assert.equal(cudaProviderInstalled(path.join(dir, 'nowhere')), false);
  });
});
