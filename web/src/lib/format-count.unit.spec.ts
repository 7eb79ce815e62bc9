import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { formatCount } from './format-count';

describe('formatCount', () => {
  it('writes whole counts as en-US does', () => {
    const samples = [0, 7, 99, 100, 999, 1000, 1700, 20_400, 123_456, 1_000_000, 98_765_432, -1, -1234, -999_999];
    for (const n of samples) assert.equal(formatCount(n), n.toLocaleString('en-US'), String(n));
    for (let n = 1; n < Number.MAX_SAFE_INTEGER / 7; n = n * 7 + 3)
      assert.equal(formatCount(n), n.toLocaleString('en-US'), String(n));
  });

  it('leaves fractions and non-finite numbers to Intl', () => {
    for (const n of [1234.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      assert.equal(formatCount(n), n.toLocaleString('en-US'));
  });
});
