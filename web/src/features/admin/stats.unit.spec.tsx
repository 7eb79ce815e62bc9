import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { anonymousPaidUsers, barPercent, formatGrowth, growthPercent, planColour } from './stats';
import { pointSummary, toggleSelection, totalSignups } from './trend';

describe('dashboard figures', () => {
  it('computes growth this month against last, 100 when last month had none', () => {
    assert.equal(growthPercent(15, 10), 50);
    assert.equal(growthPercent(5, 10), -50);
    assert.equal(growthPercent(3, 0), 100);
    assert.equal(growthPercent(0, 0), 0);
    assert.deepEqual([formatGrowth(50), formatGrowth(-12.345), formatGrowth(0)], ['+50.0%', '-12.3%', '0.0%']);
  });
  it('floors anonymous paid users at 0', () => {
    assert.equal(anonymousPaidUsers(10, { lite: 2, studio: 3, bulk: 0, unlimited: 1 }), 4);
    assert.equal(anonymousPaidUsers(3, { lite: 2, studio: 3, bulk: 0, unlimited: 1 }), 0);
  });
  it('colours plans blue, purple, orange and green', () => {
    assert.deepEqual(['lite', 'studio', 'bulk', 'unlimited', 'none', 'mystery'].map(planColour), [
      'blue',
      'purple',
      'orange',
      'green',
      'grey',
      'grey',
    ]);
    assert.equal(barPercent(1, 4), 25);
    assert.equal(barPercent(0, 0), 0);
  });
  it('selects a trend point, and the same point again deselects it', () => {
    assert.equal(toggleSelection(null, 2), 2);
    assert.equal(toggleSelection(2, 2), null);
    assert.equal(toggleSelection(2, 3), 3);
    const points = [
      { date: '2026-11-22', label: 'Nov 22', signups: 1 },
      { date: '2026-11-23', label: 'Nov 23', signups: 4 },
    ];
    assert.equal(totalSignups(points), 5);
    assert.deepEqual(points.map(pointSummary), ['Nov 22: 1 signup', 'Nov 23: 4 signups']);
  });
});
