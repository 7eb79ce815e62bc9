import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

/**
 * Reading helpers shared by the graph rewrites that work on whole fields (prune-outputs.ts,
 * free-input-size.ts): a message as a list of its fields, each kept as its exact bytes, so what a
 * rewrite does not change is copied byte for byte.
 */
export interface Entry {
  no: number;
  /** The whole field: tag, length and body. */
  bytes: Uint8Array;
}

/** Every field of a message, each with its full bytes (tag included). */
export function entries(message: Uint8Array): Entry[] {
  const reader = new BinaryReader(message);
  const out: Entry[] = [];
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const [no, wireType] = reader.tag();
    reader.skip(wireType, no);
    out.push({ no, bytes: message.subarray(start, reader.pos) });
  }
  return out;
}

/** The body of a length-delimited field given its full bytes. */
export function body(field: Uint8Array): Uint8Array {
  const reader = new BinaryReader(field);
  const [, wireType] = reader.tag();
  if (wireType !== WireType.LengthDelimited) throw new Error('expected a message field');
  return reader.bytes();
}

/** The value of a varint field given its full bytes. */
export function varint(field: Uint8Array): bigint {
  const reader = new BinaryReader(field);
  const [, wireType] = reader.tag();
  if (wireType !== WireType.Varint) throw new Error('expected a varint field');
  return BigInt(reader.int64());
}

/** The text of the first field `no` of a message ('' when absent). */
export function fieldText(message: Uint8Array, no: number): string {
  const f = entries(message).find((e) => e.no === no);
  return f ? text(body(f.bytes)) : '';
}

const decoder = new TextDecoder();
export const text = (b: Uint8Array) => decoder.decode(b);
