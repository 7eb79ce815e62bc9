import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import {
  Attr,
  Func,
  Graph,
  MapType,
  Model,
  Node,
  SequenceOrOptional,
  Sparse,
  Tensor,
  TensorType,
  Type,
  ValueInfo,
} from './onnx-fields.js';

/**
 * Rewrites an fp16 ONNX model as an fp32 one: ONNX Runtime's CPU provider has few float16
 * kernels, so an fp16 network runs through casts and is slower on CPU than the same weights in
 * float32 (ISNet: about 2.2 s against 1.95 s per inference).
 *
 * The rewrite works on the protobuf wire format with a field map of onnx.proto, so no ONNX
 * schema or Python is needed and every field it does not have to change (names, attributes,
 * metadata, fields newer than this map) is copied byte for byte.
 *
 * What changes: float16 tensors (initializers, sparse initializers, tensor attributes such as
 * Constant's, also inside subgraphs and functions) become float32 raw_data; Cast nodes to
 * float16 cast to float32; float16 element types of graph inputs, outputs and value_info become
 * float32. Other ops whose attributes name float16 as an output type (EyeLike, RandomNormal...)
 * are left alone: ONNX Runtime then refuses the model at load time on the type mismatch rather
 * than running it wrongly. CastLike follows its second input, so it needs nothing.
 */

const FLOAT = 1;
const FLOAT16 = 10;
const DATA_LOCATION_EXTERNAL = 1;

/** Widens an fp16 ONNX ModelProto to fp32; throws on bytes that are not an ONNX model. */
export function widenToFloat32(model: Uint8Array): Uint8Array {
  if (!(model instanceof Uint8Array) || model.length === 0) throw new Error('not an ONNX model: no bytes');
  let rewritten: Pieces | undefined;
  try {
    assertModelShape(model);
    rewritten = rewriteModel(model);
  } catch (cause) {
    if (cause instanceof WidenError) throw cause;
    throw new Error(`not an ONNX model: ${(cause as Error).message}`, { cause });
  }
  return rewritten ? rewritten.concat() : model.slice();
}

/** Bit pattern of IEEE binary16 `half` decoded exactly as a float32 number. */
export function halfToFloat(half: number): number {
  return halfTables().floats[half & 0xffff]!;
}

/** Errors about a well-formed model that this rewrite cannot widen (not about the bytes). */
class WidenError extends Error {}

/**
 * The rewritten output as a list of byte ranges: unchanged spans stay views of the input, so a
 * large model costs one copy at the end instead of one per nesting level.
 */
class Pieces {
  readonly parts: Uint8Array[] = [];
  length = 0;
  add(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.parts.push(bytes);
    this.length += bytes.length;
  }
  addAll(other: Pieces): void {
    for (const p of other.parts) this.parts.push(p);
    this.length += other.length;
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

/** A length-delimited field's new body, or undefined when it is unchanged. */
type MessageRewrite = (body: Uint8Array) => Pieces | undefined;
/** A varint field's new value, or undefined when it is unchanged. */
type VarintRewrite = (value: bigint) => bigint | undefined;
type FieldRewrites = Record<number, MessageRewrite | { varint: VarintRewrite }>;

/**
 * Copies a message, handing the listed fields to their rewrites. Returns undefined when nothing
 * changed, so callers keep the original bytes, length prefix included.
 */
function rewriteFields(body: Uint8Array, fields: FieldRewrites): Pieces | undefined {
  const reader = new BinaryReader(body);
  let out: Pieces | undefined;
  let copied = 0; // body[0, copied) is already in `out`
  const replace = (start: number, tagEnd: number, header: Uint8Array, content?: Pieces) => {
    out ??= new Pieces();
    out.add(body.subarray(copied, start));
    out.add(body.subarray(start, tagEnd)); // the original tag bytes
    out.add(header);
    if (content) out.addAll(content);
    copied = reader.pos;
  };
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const [no, wireType] = reader.tag();
    const tagEnd = reader.pos;
    const rewrite = fields[no];
    if (rewrite === undefined) {
      reader.skip(wireType, no);
    } else if (typeof rewrite === 'function') {
      if (wireType !== WireType.LengthDelimited)
        throw new Error(`field ${no} has wire type ${wireType}, expected a message`);
      const changed = rewrite(reader.bytes());
      if (changed) replace(start, tagEnd, new BinaryWriter().uint32(changed.length).finish(), changed);
    } else {
      if (wireType !== WireType.Varint) throw new Error(`field ${no} has wire type ${wireType}, expected a varint`);
      const value = rewrite.varint(BigInt(reader.int64()));
      if (value !== undefined) replace(start, tagEnd, new BinaryWriter().int64(value).finish());
    }
  }
  if (!out) return undefined;
  out.add(body.subarray(copied));
  return out;
}

/** A ModelProto has an ir_version and a graph; anything else is refused before rewriting. */
function assertModelShape(model: Uint8Array): void {
  const reader = new BinaryReader(model);
  let irVersion = false;
  let graph = false;
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if (no === Model.irVersion) irVersion = wireType === WireType.Varint;
    if (no === Model.graph) graph = wireType === WireType.LengthDelimited;
    reader.skip(wireType, no);
  }
  if (!irVersion) throw new Error('no ir_version');
  if (!graph) throw new Error('no graph');
}

const toFloat: VarintRewrite = (v) => (v === BigInt(FLOAT16) ? BigInt(FLOAT) : undefined);

function rewriteModel(body: Uint8Array): Pieces | undefined {
  return rewriteFields(body, { [Model.graph]: rewriteGraph, [Model.functions]: rewriteFunction });
}

function rewriteGraph(body: Uint8Array): Pieces | undefined {
  return rewriteFields(body, {
    [Graph.node]: rewriteNode,
    [Graph.initializer]: rewriteTensor,
    [Graph.sparseInitializer]: rewriteSparseTensor,
    [Graph.input]: rewriteValueInfo,
    [Graph.output]: rewriteValueInfo,
    [Graph.valueInfo]: rewriteValueInfo,
  });
}

function rewriteFunction(body: Uint8Array): Pieces | undefined {
  return rewriteFields(body, {
    [Func.node]: rewriteNode,
    [Func.attributeProto]: (b) => rewriteAttribute(b, false),
    [Func.valueInfo]: rewriteValueInfo,
  });
}

function rewriteNode(body: Uint8Array): Pieces | undefined {
  // op_type and domain may follow the attributes on the wire, so look first.
  let opType = '';
  let domain = '';
  const reader = new BinaryReader(body);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if ((no === Node.opType || no === Node.domain) && wireType === WireType.LengthDelimited) {
      if (no === Node.opType) opType = reader.string();
      else domain = reader.string();
    } else reader.skip(wireType, no);
  }
  const isCast = opType === 'Cast' && (domain === '' || domain === 'ai.onnx');
  return rewriteFields(body, { [Node.attribute]: (b) => rewriteAttribute(b, isCast) });
}

function rewriteAttribute(body: Uint8Array, ofCast: boolean): Pieces | undefined {
  let castTo = false;
  if (ofCast) {
    const reader = new BinaryReader(body);
    while (reader.pos < reader.len) {
      const [no, wireType] = reader.tag();
      if (no === Attr.name && wireType === WireType.LengthDelimited) castTo = reader.string() === 'to';
      else reader.skip(wireType, no);
    }
  }
  const fields: FieldRewrites = {
    [Attr.t]: rewriteTensor,
    [Attr.tensors]: rewriteTensor,
    [Attr.g]: rewriteGraph,
    [Attr.graphs]: rewriteGraph,
    [Attr.tp]: rewriteType,
    [Attr.typeProtos]: rewriteType,
    [Attr.sparseTensor]: rewriteSparseTensor,
    [Attr.sparseTensors]: rewriteSparseTensor,
  };
  if (castTo) fields[Attr.i] = { varint: toFloat };
  return rewriteFields(body, fields);
}

function rewriteValueInfo(body: Uint8Array): Pieces | undefined {
  return rewriteFields(body, { [ValueInfo.type]: rewriteType });
}

function rewriteType(body: Uint8Array): Pieces | undefined {
  const elemType: MessageRewrite = (b) => rewriteFields(b, { [TensorType.elemType]: { varint: toFloat } });
  return rewriteFields(body, {
    [Type.tensorType]: elemType,
    [Type.sparseTensorType]: elemType,
    [Type.sequenceType]: (b) => rewriteFields(b, { [SequenceOrOptional.elemType]: rewriteType }),
    [Type.optionalType]: (b) => rewriteFields(b, { [SequenceOrOptional.elemType]: rewriteType }),
    [Type.mapType]: (b) => rewriteFields(b, { [MapType.valueType]: rewriteType }),
  });
}

function rewriteSparseTensor(body: Uint8Array): Pieces | undefined {
  return rewriteFields(body, { [Sparse.values]: rewriteTensor });
}

function rewriteTensor(body: Uint8Array): Pieces | undefined {
  // Scan first: the data type (last one wins, as protobuf parsers do) decides whether to rewrite.
  let dataType = 0;
  let name = '';
  let raw: Uint8Array | undefined;
  const ints: number[] = [];
  let elements = 1;
  let other: string | undefined;
  const reader = new BinaryReader(body);
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    const packed = wireType === WireType.LengthDelimited;
    if (no === Tensor.dataType && wireType === WireType.Varint) dataType = reader.int32();
    else if (no === Tensor.name && packed) name = reader.string();
    else if (no === Tensor.rawData && packed) raw = reader.bytes();
    else if (no === Tensor.int32Data && (packed || wireType === WireType.Varint)) {
      if (packed) for (const r = new BinaryReader(reader.bytes()); r.pos < r.len; ) ints.push(r.int32());
      else ints.push(reader.int32());
    } else if (no === Tensor.dims && (packed || wireType === WireType.Varint)) {
      if (packed) for (const r = new BinaryReader(reader.bytes()); r.pos < r.len; ) elements *= Number(r.int64());
      else elements *= Number(reader.int64());
    } else if (no === Tensor.dataLocation && wireType === WireType.Varint) {
      if (reader.int32() === DATA_LOCATION_EXTERNAL) other = 'keeps its data in an external file';
    } else {
      if (no === Tensor.externalData) other = 'keeps its data in an external file';
      else if (no === Tensor.segment) other = 'is split into segments';
      else if (no === Tensor.floatData) other = 'carries float_data';
      reader.skip(wireType, no);
    }
  }
  if (dataType !== FLOAT16) return undefined;
  const label = `float16 tensor "${name}"`;
  if (other) throw new WidenError(`cannot widen ${label}: it ${other}`);
  if (raw && ints.length > 0) throw new WidenError(`cannot widen ${label}: it has both raw_data and int32_data`);
  const count = raw ? raw.length / 2 : ints.length;
  if (count !== elements)
    throw new WidenError(
      `cannot widen ${label}: ${raw ? `${raw.length} bytes of raw_data` : `${ints.length} values`} for ${elements} elements`,
    );
  const floats = raw ? widenRaw(raw) : widenInts(ints, label);

  // Write the tensor again: data_type becomes FLOAT and the new raw_data takes the place of
  // the first float16 data field; everything else is copied as it was.
  const out = new Pieces();
  const scan = new BinaryReader(body);
  let dataWritten = false;
  while (scan.pos < scan.len) {
    const start = scan.pos;
    const [no, wireType] = scan.tag();
    const tagEnd = scan.pos;
    scan.skip(wireType, no);
    if (no === Tensor.dataType) {
      out.add(body.subarray(start, tagEnd));
      out.add(new BinaryWriter().int32(FLOAT).finish());
    } else if (no === Tensor.rawData || no === Tensor.int32Data) {
      if (!dataWritten) {
        out.add(new BinaryWriter().tag(Tensor.rawData, WireType.LengthDelimited).uint32(floats.length).finish());
        out.add(floats);
        dataWritten = true;
      }
    } else out.add(body.subarray(start, scan.pos));
  }
  return out;
}

/** float32 little-endian bytes of fp16 little-endian bytes. */
function widenRaw(raw: Uint8Array): Uint8Array {
  const { bits } = halfTables();
  const n = raw.length >> 1;
  const out = new Uint8Array(n * 4);
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    const f = bits[raw[2 * i]! | (raw[2 * i + 1]! << 8)]!;
    out[o] = f & 0xff;
    out[o + 1] = (f >>> 8) & 0xff;
    out[o + 2] = (f >>> 16) & 0xff;
    out[o + 3] = f >>> 24;
  }
  return out;
}

/** int32_data holds one fp16 bit pattern per element, zero-extended. */
function widenInts(ints: number[], label: string): Uint8Array {
  const raw = new Uint8Array(ints.length * 2);
  ints.forEach((v, i) => {
    if (v < 0 || v > 0xffff)
      throw new WidenError(`cannot widen ${label}: int32_data value ${v} is not a float16 bit pattern`);
    raw[2 * i] = v & 0xff;
    raw[2 * i + 1] = v >>> 8;
  });
  return widenRaw(raw);
}

let tables: { bits: Uint32Array; floats: Float32Array } | undefined;

/** float32 bit patterns for all 65536 fp16 bit patterns; every fp16 value is exact in float32. */
function halfTables(): { bits: Uint32Array; floats: Float32Array } {
  if (tables) return tables;
  const bits = new Uint32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = (h & 0x8000) << 16;
    const exponent = (h >>> 10) & 0x1f;
    let mantissa = h & 0x3ff;
    if (exponent === 0x1f) {
      bits[h] = sign | 0x7f800000 | (mantissa << 13); // inf, or NaN keeping its payload
    } else if (exponent !== 0) {
      bits[h] = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    } else if (mantissa === 0) {
      bits[h] = sign; // signed zero
    } else {
      // subnormal: mantissa * 2^-24, which float32 holds as a normal number
      let shift = 0;
      while ((mantissa & 0x400) === 0) {
        mantissa <<= 1;
        shift++;
      }
      bits[h] = sign | ((127 - 15 - shift + 1) << 23) | ((mantissa & 0x3ff) << 13);
    }
  }
  tables = { bits, floats: new Float32Array(bits.buffer) };
  return tables;
}
