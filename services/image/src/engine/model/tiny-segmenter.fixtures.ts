import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { FLOAT, message } from './onnx-wire.fixtures.js';

/**
 * A segmentation "model" small enough to write field by field in a test: x float32 [1, 3, H, W]
 * -> Conv 1x1 (weights [1, 3, 1, 1], bias [1]) -> y float32 [1, 1, H, W], so each output value is
 * `weights . (x's three planes at that pixel) + bias`. With weights [1, 0, 0], bias 0 and a
 * manifest normalising to value / 255, its output is the first plane's value, a probability;
 * with weights [20, 0, 0] and bias -10 it is a logit that is 0 at a value of 127.5.
 */
export interface TinySegmenter {
  /** The side of the square input; 'free': height and width are named dimensions. */
  size: number | 'free';
  weights: [number, number, number];
  bias: number;
  /** Name of the graph's output (default 'mask'). */
  outputName?: string;
  /**
   * Set: a second output of that name, Sigmoid of the first, declared after it (a model with
   * several outputs whose last is the mask, as BiRefNet's exports are).
   */
  sigmoidOutput?: string;
}

const LD = WireType.LengthDelimited;

export function tinySegmenter({ size, weights, bias, outputName = 'mask', sigmoidOutput }: TinySegmenter): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.Varint).int64(8); // ir_version
  w.tag(2, LD).string('flatlay-test'); // producer_name
  message(w, 8, () => w.tag(1, LD).string('').tag(2, WireType.Varint).int64(13)); // opset_import
  message(w, 7, () => {
    w.tag(2, LD).string('tiny-segmenter');
    message(w, 5, () => floatTensor(w, 'W', [1, 3, 1, 1], weights));
    message(w, 5, () => floatTensor(w, 'B', [1], [bias]));
    message(w, 1, () => {
      for (const i of ['x', 'W', 'B']) w.tag(1, LD).string(i);
      w.tag(2, LD).string(outputName).tag(3, LD).string('conv').tag(4, LD).string('Conv');
    });
    if (sigmoidOutput)
      message(w, 1, () => {
        w.tag(1, LD).string(outputName).tag(2, LD).string(sigmoidOutput);
        w.tag(3, LD).string('sigmoid').tag(4, LD).string('Sigmoid');
      });
    const side = size === 'free' ? (['height', 'width'] as const) : ([size, size] as const);
    imageValue(w, 11, 'x', [1, 3, ...side]);
    imageValue(w, 12, outputName, [1, 1, ...side]);
    if (sigmoidOutput) imageValue(w, 12, sigmoidOutput, [1, 1, ...side]);
  });
  return w.finish();
}

function floatTensor(w: BinaryWriter, name: string, dims: number[], values: number[]): void {
  for (const d of dims) w.tag(1, WireType.Varint).int64(d);
  w.tag(2, WireType.Varint).int32(FLOAT);
  w.tag(8, LD).string(name);
  w.tag(9, LD).bytes(new Uint8Array(Float32Array.from(values).buffer));
}

/** A graph input or output (field 11 or 12), float32, with fixed or named dimensions. */
function imageValue(w: BinaryWriter, field: number, name: string, shape: (number | string)[]): void {
  message(w, field, () => {
    w.tag(1, LD).string(name);
    message(w, 2, () =>
      message(w, 1, () => {
        w.tag(1, WireType.Varint).int32(FLOAT);
        message(w, 2, () => {
          for (const d of shape)
            message(w, 1, () => {
              if (typeof d === 'number') w.tag(1, WireType.Varint).int64(d);
              else w.tag(2, LD).string(d);
            });
        });
      }),
    );
  });
}
