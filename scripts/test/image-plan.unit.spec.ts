import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { imageBeforeTests, TIERS_BEFORE_CONTAINER } from './image-plan.mjs';
import { longestFirst } from './sequencer.js';

describe('when npm test finishes the container image before the tests', () => {
  it('finishes a cold build first, whatever else runs', () => {
    assert.equal(imageBeforeTests({ tiers: ['container'], cold: true }), true);
    assert.equal(imageBeforeTests({ tiers: ['e2e', 'k8s', 'container', 'int'], cold: true }), true);
  });

  it('leaves a warm build in the background only when a slower file must end before the container tier starts', () => {
    assert.equal(imageBeforeTests({ tiers: ['e2e', 'e2e', 'container', 'int', 'unit'], cold: false }), false);
    assert.equal(imageBeforeTests({ tiers: ['fault', 'k8s', 'container'], cold: false }), false);
    // The container tier's file would start with vitest (two workers): its wait would be the build's.
    assert.equal(imageBeforeTests({ tiers: ['e2e', 'container', 'int'], cold: false }), true);
    assert.equal(imageBeforeTests({ tiers: ['container', 'int'], cold: false }), true);
    assert.equal(imageBeforeTests({ tiers: ['container'], cold: false }), true);
  });

  it('waits for nothing in a run without the container tier', () => {
    assert.equal(imageBeforeTests({ tiers: ['e2e', 'int', 'unit'], cold: true }), false);
  });

  it("names the tiers the sequencer starts before the container tier's", () => {
    for (const tier of ['unit', 'int', 'e2e', 'k8s', 'fault']) {
      const [first] = longestFirst(
        [
          { path: 'a.container.spec.ts', size: 1 },
          { path: `b.${tier}.spec.ts`, size: 1 },
        ],
        (f) => f,
      );
      assert.equal(first!.path !== 'a.container.spec.ts', TIERS_BEFORE_CONTAINER.includes(tier), tier);
    }
  });
});
