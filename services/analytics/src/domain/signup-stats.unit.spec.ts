import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { conversionRate, fillBuckets, monthlyGrowthRate, retentionRate, trendBuckets } from './signup-stats.js';

const now = new Date('2025-05-20T15:00:00Z');

describe('dashboard figures', () => {
  it('growth is this month against last, 100 when last month had none and this month some', () => {
    assert.equal(monthlyGrowthRate(15, 10), 50);
    assert.equal(monthlyGrowthRate(5, 10), -50);
    assert.equal(monthlyGrowthRate(3, 0), 100);
    assert.equal(monthlyGrowthRate(0, 0), 0);
  });

  it('conversion and retention are percents, 0 when there is nothing to divide by', () => {
    assert.equal(conversionRate(1, 3), 33.3);
    assert.equal(conversionRate(2, 0), 0);
    assert.equal(retentionRate(1, 4), 25);
    assert.equal(retentionRate(0, 0), 0);
  });
});

describe('trend buckets', () => {
  it('7d and 30d are that many days ending today', () => {
    const week = trendBuckets('7d', now);
    assert.equal(week.length, 7);
    assert.equal(week[6]!.date, '2025-05-20');
    assert.equal(week[0]!.date, '2025-05-14');
    assert.equal(trendBuckets('30d', now).length, 30);
  });

  it('3m is 13 weeks, 1y 12 months, lifetime every month from the first signup', () => {
    const weeks = trendBuckets('3m', now);
    assert.equal(weeks.length, 13);
    assert.ok(weeks[12]!.end > now && weeks[12]!.start <= now);
    const year = trendBuckets('1y', now);
    assert.equal(year.length, 12);
    assert.equal(year[0]!.date, '2024-06-01');
    assert.equal(year[11]!.label, 'May 2025');
    const life = trendBuckets('lifetime', now, new Date('2024-11-03T10:00:00Z'));
    assert.deepEqual(
      life.map((b) => b.date),
      ['2024-11-01', '2024-12-01', '2025-01-01', '2025-02-01', '2025-03-01', '2025-04-01', '2025-05-01'],
    );
    assert.equal(trendBuckets('lifetime', now).length, 1);
  });

  it('counts each day into its bucket and leaves days outside out', () => {
    const points = fillBuckets(trendBuckets('7d', now), [
      { day: new Date('2025-05-20T00:00:00Z'), signups: 3 },
      { day: new Date('2025-05-14T00:00:00Z'), signups: 1 },
      { day: new Date('2025-05-01T00:00:00Z'), signups: 9 },
    ]);
    assert.deepEqual(
      points.map((p) => p.signups),
      [1, 0, 0, 0, 0, 0, 3],
    );
  });
});
