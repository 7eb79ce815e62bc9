import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import * as ort from 'onnxruntime-node';
import { FLOAT, message, valueInfo } from './onnx-wire.fixtures.js';
import { keepOutputs } from './prune-outputs.js';

const LD = WireType.LengthDelimited;

/** x[4] -> Relu -> a (output), x + K -> Neg -> b (output); K is used only on the way to b. */
function twoOutputModel(): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.Varint).int64(8);
  message(w, 8, () => w.tag(1, LD).string('').tag(2, WireType.Varint).int64(15));
  message(w, 7, () => {
    message(w, 1, () => w.tag(1, LD).string('x').tag(2, LD).string('a').tag(4, LD).string('Relu'));
    message(w, 1, () =>
      w.tag(1, LD).string('x').tag(1, LD).string('K').tag(2, LD).string('s').tag(4, LD).string('Add'),
    );
    message(w, 1, () => w.tag(1, LD).string('s').tag(2, LD).string('b').tag(4, LD).string('Neg'));
    w.tag(2, LD).string('two');
    message(w, 5, () => {
      w.tag(1, WireType.Varint).int64(4).tag(2, WireType.Varint).int32(FLOAT).tag(8, LD).string('K');
      w.tag(9, LD).bytes(new Uint8Array(new Float32Array([1, 2, 3, 4]).buffer));
    });
    valueInfo(w, 11, 'x', FLOAT, [4]);
    valueInfo(w, 12, 'a', FLOAT, [4]);
    valueInfo(w, 12, 'b', FLOAT, [4]);
    valueInfo(w, 13, 's', FLOAT, [4]);
  });
  return w.finish();
}

async function run(model: Uint8Array) {
  const session = await ort.InferenceSession.create(model);
  const x = new ort.Tensor('float32', Float32Array.from([-1, 0.5, -2, 3]), [4]);
  const out = await session.run({ x });
  return {
    names: session.outputNames,
    out: Object.fromEntries(Object.entries(out).map(([k, v]) => [k, Array.from(v.data as Float32Array)])),
  };
}

describe('keepOutputs', () => {
  it('drops the other outputs with the nodes and weights only they needed', async () => {
    const full = twoOutputModel();
    const before = await run(full);
    assert.deepEqual(before.names, ['a', 'b']);
    const pruned = keepOutputs(full, ['a']);
    assert.ok(pruned.length < full.length - 16, 'the Add, Neg, K and value_info are gone');
    const after = await run(pruned);
    assert.deepEqual(after.names, ['a']);
    assert.deepEqual(after.out.a, before.out.a);
    assert.deepEqual(after.out.a, [0, 0.5, 0, 3]);
  });

  it('keeps everything when every output is kept, byte for byte', () => {
    const full = twoOutputModel();
    assert.deepEqual(keepOutputs(full, ['a', 'b']), full);
  });

  it('names the outputs a model has when asked for one it lacks', () => {
    assert.throws(() => keepOutputs(twoOutputModel(), ['mask']), /no output named mask \(it has a, b\)/);
  });

  it('refuses bytes that are not a model', () => {
    assert.throws(() => keepOutputs(new Uint8Array([1, 2, 3]), ['a']));
  });
});
