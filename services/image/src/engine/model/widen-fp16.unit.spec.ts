import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import * as ort from 'onnxruntime-node';
import { FLOAT, FLOAT16, summarizeModel, tinyFp16Model, toHalf, type TinyModel } from './onnx-wire.fixtures.js';
import { halfToFloat, widenToFloat32 } from './widen-fp16.js';

describe('halfToFloat', () => {
  it('decodes zeros, normals, the largest finite, the smallest subnormal, infinities and NaN', () => {
    assert.ok(Object.is(halfToFloat(0x0000), 0));
    assert.ok(Object.is(halfToFloat(0x8000), -0));
    assert.equal(halfToFloat(0x3c00), 1);
    assert.equal(halfToFloat(0xc000), -2);
    assert.equal(halfToFloat(0x3555), 0.333251953125);
    assert.equal(halfToFloat(0x7bff), 65504);
    assert.equal(halfToFloat(0x0400), 2 ** -14); // smallest normal
    assert.equal(halfToFloat(0x0001), 2 ** -24); // smallest subnormal
    assert.equal(halfToFloat(0x03ff), 1023 * 2 ** -24); // largest subnormal
    assert.equal(halfToFloat(0x7c00), Infinity);
    assert.equal(halfToFloat(0xfc00), -Infinity);
    assert.ok(Number.isNaN(halfToFloat(0x7e00)));
    assert.ok(Number.isNaN(halfToFloat(0xfc01)));
  });

  it('agrees with the binary16 definition on all 65536 bit patterns', () => {
    for (let h = 0; h < 65536; h++) {
      const sign = h & 0x8000 ? -1 : 1;
      const exponent = (h >> 10) & 0x1f;
      const mantissa = h & 0x3ff;
      const expected =
        exponent === 0x1f
          ? mantissa
            ? NaN
            : sign * Infinity
          : exponent === 0
            ? sign * mantissa * 2 ** -24
            : sign * 2 ** (exponent - 15) * (1 + mantissa / 1024);
      assert.ok(Object.is(halfToFloat(h), expected), `0x${h.toString(16)}: ${halfToFloat(h)} != ${expected}`);
    }
  });
});

/** y = (conv3x3(x, W) + B) * 1.5 in float64, the network the tiny model describes. */
function reference(x: Float32Array): Float64Array {
  const W = Array.from({ length: 3 * 2 * 3 * 3 }, (_, i) => ((i % 7) - 3) / 8);
  const B = [0.5, -0.25, 1];
  const y = new Float64Array(3 * 3 * 3);
  for (let o = 0; o < 3; o++)
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 3; c++) {
        let sum = B[o]!;
        for (let i = 0; i < 2; i++)
          for (let kr = 0; kr < 3; kr++)
            for (let kc = 0; kc < 3; kc++)
              sum += W[((o * 2 + i) * 3 + kr) * 3 + kc]! * x[(i * 5 + r + kr) * 5 + c + kc]!;
        y[(o * 3 + r) * 3 + c] = sum * 1.5;
      }
  return y;
}

async function run(model: TinyModel, bytes: Uint8Array, x: Float32Array): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(bytes);
  try {
    const out = await session.run({ x: new ort.Tensor('float32', x, model.inputShape) });
    assert.deepEqual(out.y!.dims, model.outputShape);
    return out.y!.data as Float32Array;
  } finally {
    await session.release();
  }
}

describe('widenToFloat32', () => {
  const x = Float32Array.from({ length: 2 * 5 * 5 }, (_, i) => Math.sin(i * 1.7) * 0.9);
  const expected = reference(x);

  for (const weights of ['raw', 'int32'] as const) {
    it(`gives the same outputs as the fp16 model, weights in ${weights === 'raw' ? 'raw_data' : 'int32_data'}`, async () => {
      const model = tinyFp16Model(weights);
      const before = summarizeModel(model.bytes);
      // the fixture must really be fp16, or the comparison below proves nothing
      assert.deepEqual(
        before.tensors.map((t) => t.dataType),
        [FLOAT16, FLOAT16, FLOAT16],
      );
      assert.deepEqual(before.castTo, [FLOAT16, FLOAT]);

      const widened = widenToFloat32(model.bytes);
      const after = summarizeModel(widened);
      assert.deepEqual(
        after.tensors.map((t) => [t.name, t.dataType, t.dims, t.rawBytes, t.int32Values]),
        [
          ['W', FLOAT, [3, 2, 3, 3], 54 * 4, 0],
          ['B', FLOAT, [3], 3 * 4, 0],
          ['', FLOAT, [], 4, 0],
        ],
      );
      assert.deepEqual(after.castTo, [FLOAT, FLOAT]);
      assert.deepEqual(
        [...after.elemTypes],
        [
          ['x', FLOAT],
          ['y', FLOAT],
          ['x16', FLOAT],
        ],
      );
      assert.deepEqual([...after.opTypes], [...before.opTypes]);

      const fp16 = await run(model, model.bytes, x);
      const fp32 = await run(model, widened, x);
      for (let i = 0; i < expected.length; i++) {
        const e = expected[i]!;
        // fp16 may round the input and each intermediate result (about 5e-4 relative each); ONNX
        // Runtime's CPU provider happens to compute this graph in float32, but no bound relies on it
        assert.ok(Math.abs(fp16[i]! - e) <= 1e-2 * Math.max(1, Math.abs(e)), `fp16 [${i}] ${fp16[i]} vs ${e}`);
        assert.ok(Math.abs(fp32[i]! - e) <= 1e-5 * Math.max(1, Math.abs(e)), `fp32 [${i}] ${fp32[i]} vs ${e}`);
        assert.ok(Math.abs(fp32[i]! - fp16[i]!) <= 1e-2 * Math.max(1, Math.abs(e)), `[${i}] ${fp32[i]} vs ${fp16[i]}`);
      }
    });
  }

  it('leaves a model without float16 byte for byte as it was', () => {
    const once = widenToFloat32(tinyFp16Model('raw').bytes);
    const twice = widenToFloat32(once);
    assert.deepEqual(twice, once);
    assert.notEqual(twice, once); // a copy, not the caller's buffer
  });

  it('refuses bytes that are not an ONNX model', () => {
    const model = tinyFp16Model('raw').bytes;
    let seed = 7;
    const noise = Uint8Array.from({ length: 4096 }, () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 24) & 0xff;
    });
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
    const notAModel = new BinaryWriter().tag(1, WireType.LengthDelimited).string('hello').finish(); // valid protobuf, no graph
    const inputs = [
      new Uint8Array(),
      noise,
      jpeg,
      notAModel,
      model.subarray(0, 40),
      model.subarray(0, model.length - 3),
      new TextEncoder().encode('{"graph": 1}'),
    ];
    for (const bytes of inputs)
      assert.throws(() => widenToFloat32(bytes), /^Error: not an ONNX model/, `${bytes.length} bytes`);
  });

  it('refuses a float16 tensor whose data lives in an external file', () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.Varint).int64(8);
    w.tag(7, WireType.LengthDelimited).fork();
    w.tag(5, WireType.LengthDelimited).fork();
    w.tag(1, WireType.Varint)
      .int64(4)
      .tag(2, WireType.Varint)
      .int32(FLOAT16)
      .tag(8, WireType.LengthDelimited)
      .string('W');
    w.tag(14, WireType.Varint).int32(1); // data_location EXTERNAL
    w.join().join();
    assert.throws(() => widenToFloat32(w.finish()), /float16 tensor "W": it keeps its data in an external file/);
  });

  it('refuses float16 data whose length does not match the dims', () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.Varint).int64(8);
    w.tag(7, WireType.LengthDelimited).fork();
    w.tag(5, WireType.LengthDelimited).fork();
    w.tag(1, WireType.Varint)
      .int64(3)
      .tag(2, WireType.Varint)
      .int32(FLOAT16)
      .tag(8, WireType.LengthDelimited)
      .string('W');
    w.tag(9, WireType.LengthDelimited).bytes(Uint8Array.from([toHalf(1) & 0xff, toHalf(1) >> 8]));
    w.join().join();
    assert.throws(() => widenToFloat32(w.finish()), /float16 tensor "W": 2 bytes of raw_data for 3 elements/);
  });
});
