import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { formatTierTimes, tierOf, tierTimes } from './tier-times.js';

describe('time per tier', () => {
  it('takes the tier from the `.X.spec.` part of the name', () => {
    assert.equal(tierOf('services/billing/test/billing-stripe.int.spec.ts'), 'int');
    assert.equal(tierOf('/abs/web/src/pages/Admin.unit.spec.tsx'), 'unit');
    assert.equal(tierOf('tests/fault/kill.fault.spec.ts'), 'fault');
    assert.equal(tierOf('tests/k8s/control-plane.k8s.spec.ts'), 'k8s');
    assert.equal(tierOf('tests/container/product.container.spec.ts'), 'container');
    assert.equal(tierOf('scripts/helper.ts'), 'other');
  });

  it('groups files per tier in run order, summing their times and spanning first start to last end', () => {
    const tiers = tierTimes([
      { file: 'a.int.spec.ts', durationMs: 4_000, startMs: 1_000, endMs: 5_000 },
      { file: 'b.unit.spec.ts', durationMs: 100 },
      { file: 'c.fault.spec.ts', durationMs: 9_000, startMs: 20_000, endMs: 29_000 },
      { file: 'd.int.spec.ts', durationMs: 3_000, startMs: 2_000, endMs: 8_000 },
      { file: 'e.e2e.spec.ts', durationMs: 7_000, startMs: 9_000, endMs: 16_000 },
      { file: 'f.k8s.spec.ts', durationMs: 1_000, startMs: 30_000, endMs: 31_000 },
    ]);
    assert.deepEqual(tiers, [
      { tier: 'unit', files: 1, summedMs: 100, elapsedMs: undefined },
      { tier: 'int', files: 2, summedMs: 7_000, elapsedMs: 7_000 },
      { tier: 'e2e', files: 1, summedMs: 7_000, elapsedMs: 7_000 },
      { tier: 'fault', files: 1, summedMs: 9_000, elapsedMs: 9_000 },
      { tier: 'k8s', files: 1, summedMs: 1_000, elapsedMs: 1_000 },
    ]);
  });

  it('prints one line per tier and the total', () => {
    const lines = formatTierTimes(
      [
        { tier: 'unit', files: 3, summedMs: 1_500, elapsedMs: 900 },
        { tier: 'int', files: 2, summedMs: 70_000, elapsedMs: undefined },
      ],
      80_000,
    );
    assert.deepEqual(lines, [
      'Time per tier:',
      '  unit      3 files      1.5 s summed      0.9 s elapsed',
      '  int       2 files     70.0 s summed          - elapsed',
      '  total     5 files     71.5 s summed     80.0 s elapsed',
    ]);
  });
});
