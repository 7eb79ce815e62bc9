import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { Attr, Graph, Model, Node, Sparse, Tensor, ValueInfo } from './onnx-fields.js';
import { body, entries as fieldsOf, fieldText, text } from './wire-entries.js';

/**
 * Keeps only the named graph outputs of an ONNX model and drops every node, initializer and
 * value_info that no longer leads to one. ISNet exports its final mask plus five side masks and
 * six full-size feature maps as graph outputs; ONNX Runtime computes and holds all of them to the
 * end of a run even when only the mask is fetched. Without them an inference is about 5-8%
 * faster and peaks about 100 MB lower.
 *
 * Works on the protobuf wire format like widen-fp16.ts: kept entries are copied byte for byte.
 * Graphs whose nodes carry subgraphs (If, Loop, Scan) are refused: their bodies may read outer
 * values by name, which this walk does not follow.
 */

interface Entry {
  no: number;
  bytes: Uint8Array; // the whole field: tag, length and body
  name?: string; // initializer, input, output, value_info
  inputs?: string[]; // nodes
  outputs?: string[]; // nodes
}

export function keepOutputs(model: Uint8Array, keep: readonly string[]): Uint8Array {
  const top = entries(model);
  const graphs = top.filter((e) => e.no === Model.graph);
  if (graphs.length !== 1) throw new Error(`not an ONNX model: ${graphs.length} graphs`);
  const graph = graphs[0]!;
  const pruned = pruneGraph(body(graph.bytes), keep);
  const w = new BinaryWriter();
  for (const e of top) {
    if (e === graph) w.tag(Model.graph, WireType.LengthDelimited).bytes(pruned);
    else w.raw(e.bytes);
  }
  return w.finish();
}

function pruneGraph(graphBody: Uint8Array, keep: readonly string[]): Uint8Array {
  const all = entries(graphBody).map(describe);
  const outputs = all.filter((e) => e.no === Graph.output).map((e) => e.name!);
  const missing = keep.filter((k) => !outputs.includes(k));
  if (missing.length)
    throw new Error(`the model has no output named ${missing.join(', ')} (it has ${outputs.join(', ')})`);
  const nodes = all.filter((e) => e.no === Graph.node);
  // the values the kept outputs depend on, followed back through the nodes until nothing is added
  const needed = new Set(keep);
  const alive = new Set<Entry>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const n of nodes) {
      if (alive.has(n) || !n.outputs!.some((o) => needed.has(o))) continue;
      alive.add(n);
      for (const i of n.inputs!) if (i) needed.add(i);
      grew = true;
    }
  }
  const w = new BinaryWriter();
  for (const e of all) {
    const kept =
      e.no === Graph.node
        ? alive.has(e)
        : e.no === Graph.output
          ? keep.includes(e.name!)
          : e.no === Graph.initializer ||
              e.no === Graph.sparseInitializer ||
              e.no === Graph.valueInfo ||
              e.no === Graph.input
            ? needed.has(e.name!)
            : true;
    if (kept) w.raw(e.bytes);
  }
  return w.finish();
}

function describe(e: Entry): Entry {
  if (e.no === Graph.node) {
    const inputs: string[] = [],
      outputs: string[] = [];
    for (const f of entries(body(e.bytes))) {
      if (f.no === Node.input) inputs.push(text(body(f.bytes)));
      else if (f.no === Node.output) outputs.push(text(body(f.bytes)));
      else if (f.no === Node.attribute && entries(body(f.bytes)).some((a) => a.no === Attr.g || a.no === Attr.graphs)) {
        throw new Error('cannot prune a graph with subgraphs (If, Loop, Scan)');
      }
    }
    return { ...e, inputs, outputs };
  }
  if (e.no === Graph.initializer) return { ...e, name: fieldText(body(e.bytes), Tensor.name) };
  if (e.no === Graph.sparseInitializer) {
    const values = entries(body(e.bytes)).find((f) => f.no === Sparse.values);
    return { ...e, name: values ? fieldText(body(values.bytes), Tensor.name) : '' };
  }
  if (e.no === Graph.input || e.no === Graph.output || e.no === Graph.valueInfo)
    return { ...e, name: fieldText(body(e.bytes), ValueInfo.name) };
  return e;
}

const entries = (message: Uint8Array): Entry[] => fieldsOf(message);
