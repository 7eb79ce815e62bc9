import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { Attr, Dim, Graph, Model, Node, Shape, Tensor, TensorType, Type, ValueInfo } from './onnx-fields.js';
import { body, type Entry, entries, fieldText, text, varint } from './wire-entries.js';

/**
 * Makes the input size of an image model a parameter. ISNet was exported at 1024x1024 and its
 * exporter baked the targets of its 34 Resize nodes (the decoder's upsampling, `_upsample_like`) as
 * constants: `sizes = Concat(Slice(Shape(x), 0, 2), Constant [h, w])` with h, w = 1024 / 2^k.
 * Fed anything but 1024 the graph then upsamples to the wrong size and fails at the next Concat.
 *
 * This rewrite computes each target from the graph input's own shape instead:
 * `[h, w] = ceil([H, W] / [1024 / h, 1024 / w])` (ISNet's pools use ceil_mode, so level k of the
 * encoder is ceil(H / 2^k) for any H), declares the input's and the outputs' height and width as
 * named dimensions (`height`, `width`), and drops the value_info shape hints that named 1024. The
 * weights and every other node are copied byte for byte.
 *
 * Understood shapes of `sizes`: a Concat whose constant part is the two spatial sizes (ISNet's
 * export), or a constant of all four sizes. Resize by `scales` is already size-free and is left
 * alone. Anything else (a target read from another tensor, a Reshape to constant spatial sizes) is
 * refused with the node's name, rather than written out as a model that is right only at 1024.
 */

const INT64 = 7;
const PREFIX = 'flatlay_free_size';
export const HEIGHT_DIM = 'height';
export const WIDTH_DIM = 'width';

interface NodeInfo {
  entry: Entry;
  opType: string;
  name: string;
  inputs: string[];
  outputs: string[];
  /** Constant nodes: their int64 value. */
  ints?: bigint[];
}

export interface FreeInputSizeResult {
  model: Uint8Array;
  /** The input's height and width at export (1024 for ISNet). */
  exportedSize: [number, number];
  /** Resize nodes whose target now follows the input. */
  resizes: number;
}

export function freeInputSize(model: Uint8Array): FreeInputSizeResult {
  const top = entries(model);
  const graphs = top.filter((e) => e.no === Model.graph);
  if (graphs.length !== 1) throw new Error(`not an ONNX model: ${graphs.length} graphs`);
  const graph = graphs[0]!;
  const { bytes, exportedSize, resizes } = rewriteGraph(body(graph.bytes));
  const w = new BinaryWriter();
  for (const e of top) {
    if (e === graph) w.tag(Model.graph, WireType.LengthDelimited).bytes(bytes);
    else w.raw(e.bytes);
  }
  return { model: w.finish(), exportedSize, resizes };
}

function rewriteGraph(graphBody: Uint8Array): { bytes: Uint8Array; exportedSize: [number, number]; resizes: number } {
  const all = entries(graphBody);
  const initializers = new Map<string, bigint[] | undefined>();
  for (const e of all) if (e.no === Graph.initializer) initializers.set(...readInitializer(body(e.bytes)));
  const inputs = all.filter((e) => e.no === Graph.input && !initializers.has(fieldText(body(e.bytes), ValueInfo.name)));
  if (inputs.length !== 1) throw new Error(`expected one image input, found ${inputs.length}`);
  const input = inputs[0]!;
  const inputName = fieldText(body(input.bytes), ValueInfo.name);
  const dims = readDims(body(input.bytes));
  const h = dims[2],
    w = dims[3];
  if (dims.length !== 4 || typeof h !== 'number' || typeof w !== 'number')
    throw new Error(`input ${inputName} is not [N, C, height, width] with fixed sizes: [${dims.join(', ')}]`);

  const nodes = all.filter((e) => e.no === Graph.node).map(readNode);
  const producer = new Map<string, NodeInfo>();
  for (const n of nodes) for (const o of n.outputs) producer.set(o, n);
  const constant = (name: string): bigint[] | undefined => initializers.get(name) ?? producer.get(name)?.ints;

  // the new nodes and initializers, made once per divisor
  const added: Uint8Array[] = [];
  const addedInits: Uint8Array[] = [];
  const hw = `${PREFIX}/input_hw`;
  addedInits.push(int64Tensor(`${PREFIX}/two`, [2n]), int64Tensor(`${PREFIX}/four`, [4n]));
  added.push(nodeBytes('Shape', [inputName], [`${PREFIX}/input_shape`], `${PREFIX}/Shape`));
  added.push(nodeBytes('Slice', [`${PREFIX}/input_shape`, `${PREFIX}/two`, `${PREFIX}/four`], [hw], `${PREFIX}/Slice`));
  const divided = new Map<string, string>();
  const targetOf = (th: bigint, tw: bigint, where: string): string => {
    if (th <= 0n || tw <= 0n || BigInt(h) % th !== 0n || BigInt(w) % tw !== 0n)
      throw new Error(`${where}: target ${th}x${tw} is not a whole fraction of the input's ${h}x${w}`);
    const fh = BigInt(h) / th,
      fw = BigInt(w) / tw;
    const key = `${fh}x${fw}`;
    let name = divided.get(key);
    if (!name) {
      name = `${PREFIX}/hw_over_${key}`;
      addedInits.push(
        int64Tensor(`${PREFIX}/f_${key}`, [fh, fw]),
        int64Tensor(`${PREFIX}/f_${key}_less1`, [fh - 1n, fw - 1n]),
      );
      added.push(nodeBytes('Add', [hw, `${PREFIX}/f_${key}_less1`], [`${name}_up`], `${PREFIX}/Add_${key}`));
      added.push(nodeBytes('Div', [`${name}_up`, `${PREFIX}/f_${key}`], [name], `${PREFIX}/Div_${key}`));
      divided.set(key, name);
    }
    return name;
  };

  // node -> (input index -> new input name)
  const rewired = new Map<NodeInfo, Map<number, string>>();
  const rewire = (n: NodeInfo, index: number, to: string) => {
    const m = rewired.get(n) ?? new Map<number, string>();
    m.set(index, to);
    rewired.set(n, m);
  };
  let resizes = 0;
  for (const n of nodes) {
    if (n.opType === 'Upsample') throw new Error(`${n.name}: Upsample has fixed scales; not rewritten`);
    if (n.opType !== 'Resize') continue;
    const sizes = n.inputs[3];
    if (!sizes) continue; // by scales: already follows its input
    const where = `Resize ${n.name || n.outputs[0]}`;
    const direct = constant(sizes);
    if (direct) {
      if (direct.length !== 4) throw new Error(`${where}: sizes has ${direct.length} values, expected 4`);
      const nc = `${PREFIX}/nc_${n.outputs[0]}`;
      const joined = `${PREFIX}/sizes_${n.outputs[0]}`;
      addedInits.push(int64Tensor(nc, direct.slice(0, 2)));
      const target = targetOf(direct[2]!, direct[3]!, where);
      added.push(nodeBytes('Concat', [nc, target], [joined], `${PREFIX}/Concat_${n.outputs[0]}`, 0n));
      rewire(n, 3, joined);
      resizes++;
      continue;
    }
    const concat = producer.get(sizes);
    const last = concat?.inputs.at(-1);
    const spatial = last === undefined ? undefined : constant(last);
    if (concat?.opType !== 'Concat' || !spatial || spatial.length !== 2)
      throw new Error(`${where}: sizes come from ${concat?.opType ?? 'a graph input'}, not a form this rewrite knows`);
    rewire(concat, concat.inputs.length - 1, targetOf(spatial[0]!, spatial[1]!, where));
    resizes++;
  }

  const out = new BinaryWriter();
  let nodesWritten = false;
  for (const e of all) {
    if (e.no === Graph.node && !nodesWritten) {
      for (const a of added) out.tag(Graph.node, WireType.LengthDelimited).bytes(a);
      nodesWritten = true;
    }
    if (e.no === Graph.valueInfo) continue; // shape hints of the exported size
    if (e.no === Graph.node) {
      const n = nodes.find((x) => x.entry === e)!;
      const m = rewired.get(n);
      if (m) out.tag(Graph.node, WireType.LengthDelimited).bytes(withInputs(body(e.bytes), m));
      else out.raw(e.bytes);
    } else if (e.no === Graph.input || e.no === Graph.output) {
      out.tag(e.no, WireType.LengthDelimited).bytes(withNamedSpatialDims(body(e.bytes), h, w));
    } else out.raw(e.bytes);
  }
  for (const t of addedInits) out.tag(Graph.initializer, WireType.LengthDelimited).bytes(t);
  return { bytes: out.finish(), exportedSize: [h, w], resizes };
}

function readNode(entry: Entry): NodeInfo {
  const n: NodeInfo = { entry, opType: '', name: '', inputs: [], outputs: [] };
  for (const f of entries(body(entry.bytes))) {
    if (f.no === Node.input) n.inputs.push(text(body(f.bytes)));
    else if (f.no === Node.output) n.outputs.push(text(body(f.bytes)));
    else if (f.no === Node.opType) n.opType = text(body(f.bytes));
    else if (f.no === Node.name) n.name = text(body(f.bytes));
    else if (f.no === Node.attribute) {
      const a = entries(body(f.bytes));
      if (a.some((x) => x.no === Attr.g || x.no === Attr.graphs))
        throw new Error('cannot rewrite a graph with subgraphs (If, Loop, Scan)');
      const t = a.find((x) => x.no === Attr.t);
      if (t) n.ints = readInitializer(body(t.bytes))[1];
    }
  }
  if (n.opType !== 'Constant') n.ints = undefined;
  return n;
}

/** An initializer's name and, for int64 tensors, its values. */
function readInitializer(tensor: Uint8Array): [string, bigint[] | undefined] {
  let name = '',
    dataType = 0;
  let raw: Uint8Array | undefined;
  const ints: bigint[] = [];
  for (const f of entries(tensor)) {
    if (f.no === Tensor.name) name = text(body(f.bytes));
    else if (f.no === Tensor.dataType) dataType = Number(varint(f.bytes));
    else if (f.no === Tensor.rawData) raw = body(f.bytes);
    else if (f.no === Tensor.int64Data) {
      // packed or not
      const b = f.bytes;
      if ((b[0]! & 7) === WireType.Varint) ints.push(varint(b));
      else for (const v of packedVarints(body(b))) ints.push(v);
    }
  }
  if (dataType !== INT64) return [name, undefined];
  if (raw) {
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    for (let i = 0; i + 8 <= raw.length; i += 8) ints.push(view.getBigInt64(i, true));
  }
  return [name, ints];
}

function packedVarints(b: Uint8Array): bigint[] {
  const out: bigint[] = [];
  let value = 0n,
    shift = 0n;
  for (const byte of b) {
    value |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
    if ((byte & 0x80) === 0) {
      out.push(BigInt.asIntN(64, value));
      value = 0n;
      shift = 0n;
    }
  }
  return out;
}

/** A ValueInfo's dims: numbers for dim_value, strings for dim_param, undefined when unknown. */
function readDims(valueInfo: Uint8Array): (number | string | undefined)[] {
  const type = entries(valueInfo).find((e) => e.no === ValueInfo.type);
  const tensorType = type && entries(body(type.bytes)).find((e) => e.no === Type.tensorType);
  const shape = tensorType && entries(body(tensorType.bytes)).find((e) => e.no === TensorType.shape);
  if (!shape) return [];
  return entries(body(shape.bytes))
    .filter((e) => e.no === Shape.dim)
    .map((d) => {
      const f = entries(body(d.bytes));
      const v = f.find((x) => x.no === Dim.value);
      const p = f.find((x) => x.no === Dim.param);
      return v ? Number(varint(v.bytes)) : p ? text(body(p.bytes)) : undefined;
    });
}

/**
 * The ValueInfo with the last two dims named `height` and `width` where they were the exported
 * size (an input [1,3,1024,1024], a mask output [1,1,1024,1024]); other dims as they were.
 */
function withNamedSpatialDims(valueInfo: Uint8Array, h: number, w: number): Uint8Array {
  const dims = readDims(valueInfo);
  if (dims.length !== 4 || dims[2] !== h || dims[3] !== w) return valueInfo;
  const out = new BinaryWriter();
  for (const e of entries(valueInfo)) {
    if (e.no !== ValueInfo.type) {
      out.raw(e.bytes);
      continue;
    }
    out.tag(ValueInfo.type, WireType.LengthDelimited).fork();
    for (const t of entries(body(e.bytes))) {
      if (t.no !== Type.tensorType) {
        out.raw(t.bytes);
        continue;
      }
      out.tag(Type.tensorType, WireType.LengthDelimited).fork();
      for (const tt of entries(body(t.bytes))) {
        if (tt.no !== TensorType.shape) {
          out.raw(tt.bytes);
          continue;
        }
        out.tag(TensorType.shape, WireType.LengthDelimited).fork();
        entries(body(tt.bytes))
          .filter((d) => d.no === Shape.dim)
          .forEach((d, i) => {
            if (i < 2) out.raw(d.bytes);
            else
              out
                .tag(Shape.dim, WireType.LengthDelimited)
                .fork()
                .tag(Dim.param, WireType.LengthDelimited)
                .string(i === 2 ? HEIGHT_DIM : WIDTH_DIM)
                .join();
          });
        out.join();
      }
      out.join();
    }
    out.join();
  }
  return out.finish();
}

/** A node with some of its inputs renamed, every other field as it was. */
function withInputs(node: Uint8Array, renamed: Map<number, string>): Uint8Array {
  const out = new BinaryWriter();
  let index = 0;
  for (const f of entries(node)) {
    if (f.no === Node.input) {
      const to = renamed.get(index++);
      if (to !== undefined) out.tag(Node.input, WireType.LengthDelimited).string(to);
      else out.raw(f.bytes);
    } else out.raw(f.bytes);
  }
  return out.finish();
}

function nodeBytes(opType: string, inputs: string[], outputs: string[], name: string, axis?: bigint): Uint8Array {
  const w = new BinaryWriter();
  for (const i of inputs) w.tag(Node.input, WireType.LengthDelimited).string(i);
  for (const o of outputs) w.tag(Node.output, WireType.LengthDelimited).string(o);
  w.tag(Node.name, WireType.LengthDelimited).string(name);
  w.tag(Node.opType, WireType.LengthDelimited).string(opType);
  if (axis !== undefined) {
    // AttributeProto { name: 'axis', i, type: INT (2) }
    w.tag(Node.attribute, WireType.LengthDelimited)
      .fork()
      .tag(Attr.name, WireType.LengthDelimited)
      .string('axis')
      .tag(Attr.i, WireType.Varint)
      .int64(axis)
      .tag(Attr.type, WireType.Varint)
      .int32(2)
      .join();
  }
  return w.finish();
}

function int64Tensor(name: string, values: bigint[]): Uint8Array {
  const raw = new Uint8Array(values.length * 8);
  const view = new DataView(raw.buffer);
  values.forEach((v, i) => {
    view.setBigInt64(i * 8, v, true);
  });
  return new BinaryWriter()
    .tag(Tensor.dims, WireType.Varint)
    .int64(values.length)
    .tag(Tensor.dataType, WireType.Varint)
    .int32(INT64)
    .tag(Tensor.name, WireType.LengthDelimited)
    .string(name)
    .tag(Tensor.rawData, WireType.LengthDelimited)
    .bytes(raw)
    .finish();
}
