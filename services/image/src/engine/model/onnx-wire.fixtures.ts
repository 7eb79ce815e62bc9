import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

/**
 * Test helpers for widen-fp16: a tiny fp16 ONNX model written field by field, and a reader that
 * decodes just enough of onnx.proto to say where float16 is left. The reader is written apart
 * from the widener on purpose, so a mistake in one is not repeated in the other.
 */

export const FLOAT = 1;
export const FLOAT16 = 10;
const LD = WireType.LengthDelimited;

/** fp16 bit pattern of a value that fp16 holds exactly (zero or a short normal number). */
export function toHalf(value: number): number {
  if (value === 0) return Object.is(value, -0) ? 0x8000 : 0;
  const sign = value < 0 ? 0x8000 : 0;
  const abs = Math.abs(value);
  const exponent = Math.floor(Math.log2(abs));
  const mantissa = (abs / 2 ** exponent - 1) * 1024;
  if (!Number.isInteger(mantissa) || exponent < -14 || exponent > 15) throw new Error(`${value} is not exact in fp16`);
  return sign | ((exponent + 15) << 10) | mantissa;
}

export interface TinyModel {
  bytes: Uint8Array;
  inputShape: number[];
  outputShape: number[];
}

/**
 * x float32 [1,2,5,5] -> Cast(to fp16) -> Conv(W fp16 [3,2,3,3], B fp16 [3]) -> Mul(Constant fp16)
 * -> Cast(to float) -> y float32 [1,3,3,3]; opset 15. `weights` picks where the fp16 initializers
 * and the Constant keep their values: raw_data, or int32_data (one bit pattern per value).
 * The int32 variant also writes Cast's attribute before its op_type, which is legal protobuf.
 */
export function tinyFp16Model(weights: 'raw' | 'int32'): TinyModel {
  const w = new BinaryWriter();
  w.tag(1, WireType.Varint).int64(8); // ir_version
  w.tag(2, LD).string('flatlay-test'); // producer_name
  message(w, 8, () => w.tag(1, LD).string('').tag(2, WireType.Varint).int64(15)); // opset_import
  message(w, 7, () => {
    w.tag(2, LD).string('tiny'); // name
    const weightValues = Array.from({ length: 3 * 2 * 3 * 3 }, (_, i) => ((i % 7) - 3) / 8);
    message(w, 5, () => tensor(w, 'W', [3, 2, 3, 3], weightValues, weights));
    message(w, 5, () => tensor(w, 'B', [3], [0.5, -0.25, 1], weights));
    node(w, 'Cast', ['x'], ['x16'], [['to', FLOAT16]], weights === 'int32');
    message(w, 1, () => {
      w.tag(2, LD).string('c16').tag(4, LD).string('Constant');
      message(w, 5, () => {
        w.tag(1, LD).string('value');
        message(w, 5, () => tensor(w, '', [], [1.5], weights));
        w.tag(20, WireType.Varint).int32(4); // type TENSOR
      });
    });
    message(w, 1, () => {
      for (const i of ['x16', 'W', 'B']) w.tag(1, LD).string(i);
      w.tag(2, LD).string('conv16').tag(4, LD).string('Conv');
      message(w, 5, () => {
        w.tag(1, LD).string('kernel_shape');
        w.tag(8, WireType.Varint).int64(3).tag(8, WireType.Varint).int64(3);
        w.tag(20, WireType.Varint).int32(7); // type INTS
      });
    });
    node(w, 'Mul', ['conv16', 'c16'], ['y16'], [], false);
    node(w, 'Cast', ['y16'], ['y'], [['to', FLOAT]], weights === 'int32');
    valueInfo(w, 11, 'x', FLOAT, [1, 2, 5, 5]);
    valueInfo(w, 12, 'y', FLOAT, [1, 3, 3, 3]);
    valueInfo(w, 13, 'x16', FLOAT16, [1, 2, 5, 5]);
  });
  return { bytes: w.finish(), inputShape: [1, 2, 5, 5], outputShape: [1, 3, 3, 3] };
}

export function message(w: BinaryWriter, field: number, body: () => void): void {
  w.tag(field, LD).fork();
  body();
  w.join();
}

function tensor(w: BinaryWriter, name: string, dims: number[], values: number[], store: 'raw' | 'int32'): void {
  for (const d of dims) w.tag(1, WireType.Varint).int64(d);
  w.tag(2, WireType.Varint).int32(FLOAT16);
  if (name) w.tag(8, LD).string(name);
  const halves = values.map(toHalf);
  if (store === 'int32') {
    w.tag(5, LD).fork();
    for (const h of halves) w.int32(h);
    w.join();
  } else {
    const raw = new Uint8Array(halves.length * 2);
    halves.forEach((h, i) => {
      new DataView(raw.buffer).setUint16(2 * i, h, true);
    });
    w.tag(9, LD).bytes(raw);
  }
}

function node(
  w: BinaryWriter,
  opType: string,
  inputs: string[],
  outputs: string[],
  ints: [string, number][],
  attributesFirst: boolean,
): void {
  message(w, 1, () => {
    if (!attributesFirst) w.tag(4, LD).string(opType);
    for (const [name, value] of ints) {
      message(w, 5, () =>
        w.tag(1, LD).string(name).tag(3, WireType.Varint).int64(value).tag(20, WireType.Varint).int32(2),
      );
    }
    for (const i of inputs) w.tag(1, LD).string(i);
    for (const o of outputs) w.tag(2, LD).string(o);
    if (attributesFirst) w.tag(4, LD).string(opType);
  });
}

export function valueInfo(w: BinaryWriter, field: number, name: string, elemType: number, shape: number[]): void {
  message(w, field, () => {
    w.tag(1, LD).string(name);
    message(w, 2, () =>
      message(w, 1, () => {
        w.tag(1, WireType.Varint).int32(elemType);
        message(w, 2, () => {
          for (const d of shape) message(w, 1, () => w.tag(1, WireType.Varint).int64(d));
        });
      }),
    );
  });
}

// ---- reading -------------------------------------------------------------------------------

export interface TensorSummary {
  where: string;
  name: string;
  dataType: number;
  dims: number[];
  rawBytes: number;
  int32Values: number;
}

export interface ModelSummary {
  tensors: TensorSummary[];
  /** `to` of every Cast node, anywhere in the model. */
  castTo: number[];
  /** elem_type of every tensor type in graph inputs, outputs and value_info, by value name. */
  elemTypes: Map<string, number>;
  opTypes: Map<string, number>;
}

/** Decodes the parts of an ONNX model that carry element types. */
export function summarizeModel(bytes: Uint8Array): ModelSummary {
  const summary: ModelSummary = { tensors: [], castTo: [], elemTypes: new Map(), opTypes: new Map() };
  for (const [no, value] of fields(bytes)) if (no === 7) readGraph(value as Uint8Array, summary, 'graph');
  return summary;
}

/** Every (field number, value) of a message: varints as bigint, length-delimited as bytes. */
function fields(bytes: Uint8Array): [number, bigint | Uint8Array][] {
  const r = new BinaryReader(bytes);
  const out: [number, bigint | Uint8Array][] = [];
  while (r.pos < r.len) {
    const [no, wt] = r.tag();
    if (wt === WireType.Varint) out.push([no, BigInt(r.uint64())]);
    else if (wt === LD) out.push([no, r.bytes()]);
    else r.skip(wt, no);
  }
  return out;
}

const text = (b: bigint | Uint8Array) => new TextDecoder().decode(b as Uint8Array);

function readGraph(bytes: Uint8Array, s: ModelSummary, where: string): void {
  for (const [no, value] of fields(bytes)) {
    if (no === 1) readNode(value as Uint8Array, s, where);
    else if (no === 5) s.tensors.push(readTensor(value as Uint8Array, `${where}.initializer`));
    else if (no === 11 || no === 12 || no === 13) {
      const f = fields(value as Uint8Array);
      const name = text(f.find(([n]) => n === 1)?.[1] ?? new Uint8Array());
      const type = f.find(([n]) => n === 2)?.[1] as Uint8Array | undefined;
      const tensorType = type && (fields(type).find(([n]) => n === 1)?.[1] as Uint8Array | undefined);
      const elem = tensorType && fields(tensorType).find(([n]) => n === 1)?.[1];
      if (elem !== undefined) s.elemTypes.set(name, Number(elem));
    }
  }
}

function readNode(bytes: Uint8Array, s: ModelSummary, where: string): void {
  const f = fields(bytes);
  const opType = text(f.find(([n]) => n === 4)?.[1] ?? new Uint8Array());
  s.opTypes.set(opType, (s.opTypes.get(opType) ?? 0) + 1);
  for (const [no, value] of f) {
    if (no !== 5) continue;
    const a = fields(value as Uint8Array);
    const name = text(a.find(([n]) => n === 1)?.[1] ?? new Uint8Array());
    for (const [an, av] of a) {
      if (an === 3 && opType === 'Cast' && name === 'to') s.castTo.push(Number(av));
      if (an === 5 || an === 10) s.tensors.push(readTensor(av as Uint8Array, `${where}.${opType}.${name}`));
      if (an === 6 || an === 11) readGraph(av as Uint8Array, s, `${where}.${opType}.${name}`);
    }
  }
}

function readTensor(bytes: Uint8Array, where: string): TensorSummary {
  const t: TensorSummary = { where, name: '', dataType: 0, dims: [], rawBytes: 0, int32Values: 0 };
  for (const [no, value] of fields(bytes)) {
    if (no === 1) t.dims.push(...(typeof value === 'bigint' ? [Number(value)] : varints(value)));
    else if (no === 2) t.dataType = Number(value);
    else if (no === 8) t.name = text(value);
    else if (no === 9) t.rawBytes = (value as Uint8Array).length;
    else if (no === 5) t.int32Values += typeof value === 'bigint' ? 1 : varints(value).length;
  }
  return t;
}

/** The values of a packed repeated varint field. */
function varints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (const r = new BinaryReader(bytes); r.pos < r.len; ) out.push(Number(r.int64()));
  return out;
}
