import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { EngineError } from '../errors.js';
import { toModelInput } from '../stages/segment.js';
import {
  ISNET_INPUT,
  ISNET_MANIFEST,
  inputEncoding,
  manifestPathFor,
  manifestSchema,
  parseManifest,
  toProbabilities,
} from './manifest.js';

describe('model manifest', () => {
  it("encodes ISNet's input exactly as before manifests: (value - 128) / 256", () => {
    for (let v = 0; v < 256; v++)
      for (const table of ISNET_INPUT.tables) assert.equal(table[v], Math.fround((v - 128) / 256), `value ${v}`);
    assert.deepEqual(ISNET_INPUT.sources, [0, 1, 2]);
  });

  it('the default manifest is valid and says what the prepared ISNet files are', () => {
    assert.deepEqual(manifestSchema.parse(JSON.parse(JSON.stringify(ISNET_MANIFEST))), ISNET_MANIFEST);
    assert.equal(ISNET_MANIFEST.inputSize, 'free');
    assert.equal(ISNET_MANIFEST.output, 'probabilities');
    assert.match(ISNET_MANIFEST.licence, /AGPL-3\.0/);
  });

  it('reads the planes in the manifest order with its normalisation', () => {
    const imagenet = inputEncoding({ channelOrder: 'bgr', mean: [0.406, 0.456, 0.485], std: [0.225, 0.224, 0.229] });
    const pixel = Buffer.from([255, 0, 51]); // r, g, b
    const input = toModelInput(pixel, 1, imagenet);
    assert.deepEqual(
      Array.from(input),
      [(0.2 - 0.406) / 0.225, (0 - 0.456) / 0.224, (1 - 0.485) / 0.229].map(Math.fround),
      'blue first, then green, then red',
    );
  });

  it('fills in the channel order and refuses unknown fields', () => {
    const base = { name: 'm', licence: 'MIT', inputSize: 1024, mean: [0, 0, 0], std: [1, 1, 1], output: 'logits' };
    assert.equal(parseManifest(base, 'm.json').channelOrder, 'rgb');
    assert.throws(
      () => parseManifest({ ...base, std: [1, 0, 1], size: 3 }, 'm.json'),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'INVALID_CONFIG' &&
        /m\.json/.test(e.message) &&
        /std: every std must be above 0/.test(e.message) &&
        /size/.test(e.message),
    );
  });

  it('takes the output by name or by index, not both', () => {
    const base = { name: 'm', licence: 'MIT', inputSize: 'free', mean: [0, 0, 0], std: [1, 1, 1], output: 'logits' };
    assert.equal(parseManifest({ ...base, outputIndex: -1 }, 'm.json').outputIndex, -1);
    assert.throws(
      () => parseManifest({ ...base, outputName: 'mask', outputIndex: 0 }, 'm.json'),
      (e: unknown) =>
        e instanceof EngineError && /outputIndex: give outputName or outputIndex, not both/.test(e.message),
    );
    assert.throws(
      () => parseManifest({ ...base, outputIndex: 0.5 }, 'm.json'),
      (e: unknown) => e instanceof EngineError && /outputIndex: /.test(e.message),
    );
  });

  it('finds the manifest beside the model', () => {
    assert.equal(manifestPathFor('/models/birefnet-lite.onnx'), '/models/birefnet-lite.json');
    assert.equal(manifestPathFor('/models/ben2'), '/models/ben2.json');
  });

  it('turns logits into probabilities and leaves probabilities alone', () => {
    assert.deepEqual(Array.from(toProbabilities(Float32Array.from([0, 0.25, 1]), 'probabilities')), [0, 0.25, 1]);
    const p = toProbabilities(Float32Array.from([0, -20, 20, Math.log(3)]), 'logits');
    assert.deepEqual(
      Array.from(p).map((v) => Math.round(v * 1e4) / 1e4),
      [0.5, 0, 1, 0.75],
    );
  });
});
