/**
 * Kafka's default partitioner (murmur2 of the key, positive, modulo partitions), so the
 * in-process bus places keys exactly where Kafka would.
 */
export function partitionFor(key: string, partitions: number): number {
  return (murmur2(Buffer.from(key)) & 0x7fffffff) % partitions;
}

export function murmur2(data: Buffer): number {
  const m = 0x5bd1e995;
  const r = 24;
  const seed = 0x9747b28c;
  let length = data.length;
  let h = seed ^ length;
  let i = 0;
  while (length >= 4) {
    let k = data.readInt32LE(i);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
    i += 4;
    length -= 4;
  }
  // The 1 to 3 trailing bytes, as murmur2's fall-through switch mixes them.
  if (length >= 3) h ^= data[i + 2]! << 16;
  if (length >= 2) h ^= data[i + 1]! << 8;
  if (length >= 1) {
    h ^= data[i]!;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h;
}
