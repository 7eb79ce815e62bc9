/**
 * onnx.proto field numbers for the parts of a model that widen-fp16.ts, prune-outputs.ts and
 * free-input-size.ts read and rewrite on the protobuf wire format (one map, so they cannot disagree).
 */
export const Model = { irVersion: 1, graph: 7, functions: 25 } as const;
export const Graph = { node: 1, initializer: 5, input: 11, output: 12, valueInfo: 13, sparseInitializer: 15 } as const;
export const Func = { node: 7, attributeProto: 11, valueInfo: 12 } as const;
export const Node = { input: 1, output: 2, name: 3, opType: 4, attribute: 5, domain: 7 } as const;
export const Attr = {
  name: 1,
  i: 3,
  t: 5,
  g: 6,
  tensors: 10,
  type: 20,
  graphs: 11,
  tp: 14,
  typeProtos: 15,
  sparseTensor: 22,
  sparseTensors: 23,
} as const;
export const Tensor = {
  dims: 1,
  dataType: 2,
  segment: 3,
  floatData: 4,
  int32Data: 5,
  int64Data: 7,
  name: 8,
  rawData: 9,
  externalData: 13,
  dataLocation: 14,
} as const;
export const Sparse = { values: 1 } as const;
export const ValueInfo = { name: 1, type: 2 } as const;
export const Type = { tensorType: 1, sequenceType: 4, mapType: 5, sparseTensorType: 8, optionalType: 9 } as const;
export const TensorType = { elemType: 1, shape: 2 } as const;
export const SequenceOrOptional = { elemType: 1 } as const;
export const MapType = { valueType: 2 } as const;
export const Shape = { dim: 1 } as const;
export const Dim = { value: 1, param: 2 } as const;
