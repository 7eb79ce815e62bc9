import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { PersistentMap, PersistentSet } from './persistent-collections.js';

// Operations on a growing history of versions: each step extends a random earlier version, so
// branches (the same value extended twice) happen often. Every version must keep meaning what
// it meant, exactly like a copied native collection.
const steps = fc.array(
  fc.record({ from: fc.nat(), key: fc.integer({ min: 0, max: 25 }), value: fc.integer({ min: 0, max: 3 }) }),
  { maxLength: 120 },
);

describe('PersistentSet', () => {
  it('behaves like a copied Set at every version, branches included', () => {
    fc.assert(
      fc.property(steps, (ops) => {
        const versions: Array<[PersistentSet<number>, Set<number>]> = [[PersistentSet.empty(), new Set()]];
        for (const op of ops) {
          const [set, model] = versions[op.from % versions.length]!;
          versions.push([set.add(op.key), new Set(model).add(op.key)]);
        }
        for (const [set, model] of versions) {
          assert.equal(set.size, model.size);
          assert.deepEqual([...set], [...model], 'same members in insertion order');
          for (let k = 0; k <= 25; k++) assert.equal(set.has(k), model.has(k));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('adding a member it has returns the same value; of() builds from an iterable', () => {
    const s = PersistentSet.of(['a', 'b']);
    assert.equal(s.add('a'), s);
    assert.deepEqual(
      [...s.entries()],
      [
        ['a', 'a'],
        ['b', 'b'],
      ],
    );
  });
});

describe('PersistentMap', () => {
  it('behaves like a copied Map at every version, overwrites and branches included', () => {
    fc.assert(
      fc.property(steps, (ops) => {
        const versions: Array<[PersistentMap<number, number>, Map<number, number>]> = [
          [PersistentMap.empty(), new Map()],
        ];
        for (const op of ops) {
          const [map, model] = versions[op.from % versions.length]!;
          versions.push([map.set(op.key, op.value), new Map(model).set(op.key, op.value)]);
        }
        for (const [map, model] of versions) {
          assert.equal(map.size, model.size);
          assert.deepEqual(new Map(map), model);
          for (let k = 0; k <= 25; k++) assert.equal(map.get(k), model.get(k));
        }
      }),
      { numRuns: 300 },
    );
  });
});
