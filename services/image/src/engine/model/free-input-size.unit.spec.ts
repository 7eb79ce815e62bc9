import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import * as ort from 'onnxruntime-node';
import { freeInputSize } from './free-input-size.js';
import { FLOAT, message, valueInfo } from './onnx-wire.fixtures.js';
import { keepOutputs } from './prune-outputs.js';

const LD = WireType.LengthDelimited;
const INT64 = 7;

function constantInts(w: BinaryWriter, output: string, values: number[]): void {
  message(w, 1, () => {
    w.tag(2, LD).string(output).tag(4, LD).string('Constant');
    message(w, 5, () => {
      w.tag(1, LD).string('value');
      message(w, 5, () => {
        w.tag(1, WireType.Varint).int64(values.length).tag(2, WireType.Varint).int32(INT64);
        w.tag(9, LD).bytes(new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer));
      });
      w.tag(20, WireType.Varint).int32(4);
    });
  });
}

function node(w: BinaryWriter, op: string, inputs: string[], outputs: string[], ints: [string, number[]][] = []) {
  message(w, 1, () => {
    for (const i of inputs) w.tag(1, LD).string(i);
    for (const o of outputs) w.tag(2, LD).string(o);
    w.tag(4, LD).string(op);
    for (const [name, values] of ints)
      message(w, 5, () => {
        w.tag(1, LD).string(name);
        if (values.length === 1) w.tag(3, WireType.Varint).int64(values[0]!).tag(20, WireType.Varint).int32(2);
        else {
          for (const v of values) w.tag(8, WireType.Varint).int64(v);
          w.tag(20, WireType.Varint).int32(7);
        }
      });
  });
}

/**
 * A small U-Net in the shape ISNet was exported in, at 8x8: x -> MaxPool(ceil) -> p [4x4] ->
 * Resize to Concat(Slice(Shape(p), 0, 2), Constant [8, 8]) -> u, y = x + u; and a second
 * upsampling whose sizes are one constant [1, 1, 8, 8] (the other form the rewrite knows).
 */
function tinyUnet(): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.Varint).int64(8);
  message(w, 8, () => w.tag(1, LD).string('').tag(2, WireType.Varint).int64(15));
  message(w, 7, () => {
    node(
      w,
      'MaxPool',
      ['x'],
      ['p'],
      [
        ['kernel_shape', [2, 2]],
        ['strides', [2, 2]],
        ['ceil_mode', [1]],
      ],
    );
    node(w, 'Shape', ['p'], ['ps']);
    constantInts(w, 'zero', [0]);
    constantInts(w, 'two', [2]);
    node(w, 'Slice', ['ps', 'zero', 'two', 'zero'], ['nc']);
    constantInts(w, 'hw', [8, 8]);
    node(w, 'Concat', ['nc', 'hw'], ['sizes'], [['axis', [0]]]);
    node(w, 'Resize', ['p', '', '', 'sizes'], ['u']);
    constantInts(w, 'all', [1, 1, 8, 8]);
    node(w, 'Resize', ['p', '', '', 'all'], ['v']);
    node(w, 'Add', ['x', 'u'], ['s']);
    node(w, 'Add', ['s', 'v'], ['y']);
    valueInfo(w, 11, 'x', FLOAT, [1, 1, 8, 8]);
    valueInfo(w, 12, 'y', FLOAT, [1, 1, 8, 8]);
    valueInfo(w, 13, 'p', FLOAT, [1, 1, 4, 4]);
  });
  return w.finish();
}

async function run(model: Uint8Array, side: number): Promise<{ dims: readonly number[]; data: Float32Array }> {
  const session = await ort.InferenceSession.create(model);
  const x = Float32Array.from({ length: side * side }, (_, i) => (i % 7) - 3);
  const out = (await session.run({ x: new ort.Tensor('float32', x, [1, 1, side, side]) })).y!;
  return { dims: out.dims, data: out.data as Float32Array };
}

describe('freeInputSize', () => {
  it('gives the same answer at the exported size', async () => {
    const fixed = tinyUnet();
    const { model, exportedSize, resizes } = freeInputSize(fixed);
    assert.deepEqual(exportedSize, [8, 8]);
    assert.equal(resizes, 2);
    assert.deepEqual(await run(model, 8), await run(fixed, 8));
  });

  it('runs at other sizes, including ones the pooling rounds up, where the fixed model fails', async () => {
    const free = keepOutputs(freeInputSize(tinyUnet()).model, ['y']);
    await assert.rejects(run(tinyUnet(), 16));
    for (const side of [16, 6, 10]) {
      const out = await run(free, side);
      assert.deepEqual(out.dims, [1, 1, side, side]);
    }
  });

  it('names the input and output sizes and drops the shape hints of the exported size', async () => {
    const session = await ort.InferenceSession.create(freeInputSize(tinyUnet()).model);
    const meta = session.inputMetadata[0]!;
    assert.ok(meta.isTensor);
    assert.deepEqual(meta.shape, [1, 1, 'height', 'width']);
  });

  it('refuses targets that are not a whole fraction of the input', () => {
    const bytes = tinyUnet();
    // the same model with the Concat constant [8, 8] turned into [3, 3]
    const at = Buffer.from(bytes).indexOf(Buffer.from(new BigInt64Array([8n, 8n]).buffer));
    const broken = bytes.slice();
    broken.set(new Uint8Array(new BigInt64Array([3n, 3n]).buffer), at);
    assert.throws(() => freeInputSize(broken), /target 3x3 is not a whole fraction of the input's 8x8/);
  });

  it('refuses bytes that are not a model', () => {
    assert.throws(() => freeInputSize(new Uint8Array([1, 2, 3])));
  });
});
