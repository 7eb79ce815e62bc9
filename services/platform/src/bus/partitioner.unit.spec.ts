import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'vitest';
import { murmur2, partitionFor } from './partitioner.js';

// kafkajs's own murmur2, which its default partitioner uses to place keys on a real broker.
const kafkajsMurmur2 = createRequire(import.meta.url)('kafkajs/src/producer/partitioners/default/murmur2.js') as (
  key: Buffer,
) => number;

describe('partitioner', () => {
  it("hashes like Kafka (the vectors of Kafka's UtilsTest.testMurmur2)", () => {
    const vectors: Array<[string, number]> = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    for (const [key, expected] of vectors) assert.equal(murmur2(Buffer.from(key)), expected, key);
  });

  it('puts every key on the partition kafkajs would', () => {
    for (let i = 0; i < 500; i++) {
      const key = `account-${i}-${'x'.repeat(i % 7)}`;
      assert.equal(partitionFor(key, 6), (kafkajsMurmur2(Buffer.from(key)) & 0x7fffffff) % 6, key);
    }
  });
});
