import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { longestFirst } from './sequencer.js';

describe('test file order', () => {
  it('starts the slow tiers first, then the longest remembered file, then the larger one', () => {
    const files = [
      { path: 'a.unit.spec.ts', size: 900 },
      { path: 'b.int.spec.ts', size: 10, duration: 5 },
      { path: 'c.int.spec.ts', size: 5, duration: 50 },
      { path: 'd.e2e.spec.ts', size: 1 },
      { path: 'e.k8s.spec.ts', size: 1 },
      { path: 'f.unit.spec.tsx', size: 2000 },
      { path: 'g.e2e.spec.ts', size: 3 },
      { path: 'h.container.spec.ts', size: 1 },
    ];
    assert.deepEqual(
      longestFirst(files, (f) => f).map((f) => f.path),
      [
        'e.k8s.spec.ts',
        'g.e2e.spec.ts',
        'd.e2e.spec.ts',
        // after the e2e files, by when the image built in the background is ready
        'h.container.spec.ts',
        'c.int.spec.ts',
        'b.int.spec.ts',
        'f.unit.spec.tsx',
        'a.unit.spec.ts',
      ],
    );
  });
});
