import { describe, expect, it } from 'vitest';
import { slowdownFor } from './cpu-slowdown.mjs';

describe('the CPU slowdown that emulates Lighthouse’s phone on this host (ADR 0721)', () => {
  it('is Lighthouse’s own 4x on the host it is calibrated for, and the calculator’s anchors elsewhere', () => {
    expect(slowdownFor(1533)).toBeCloseTo(4, 2);
    expect(slowdownFor(2000)).toBeCloseTo(6, 2);
    expect(slowdownFor(1300)).toBe(3);
    expect(slowdownFor(800)).toBe(2);
    expect(slowdownFor(150)).toBe(1);
  });

  it('slows a slower host less, and never speeds it up', () => {
    const indexes = [150, 400, 799, 800, 1000, 1098, 1299, 1300, 1533, 1750, 2500];
    const slowdowns = indexes.map((i) => slowdownFor(i) ?? Number.NaN);
    for (let k = 1; k < slowdowns.length; k++) expect(slowdowns[k]).toBeGreaterThan(slowdowns[k - 1] ?? Number.NaN);
    expect(Math.min(...slowdowns)).toBeGreaterThanOrEqual(1);
    // The hosts this project's figures came from: index about 1100 (2.6x, not 4x) and 2500 (8.3x).
    expect(slowdownFor(1098)).toBeCloseTo(2.596, 3);
    expect(slowdownFor(2500)).toBeCloseTo(8.15, 2);
  });

  it('has no answer for a host slower than the phone, or an index not measured', () => {
    expect(slowdownFor(149)).toBeUndefined();
    expect(slowdownFor(Number.NaN)).toBeUndefined();
    expect(slowdownFor(-1)).toBeUndefined();
  });
});
