// The dashboard's derived figures and the trend's buckets, from counts the read models give. Pure:
// "now" always comes in.

const DAY = 86_400_000;

/** Percent rounded to one decimal. */
const percent = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

/** This month's signups against last month's, in percent; 100 when last month had none and this month some. */
export function monthlyGrowthRate(thisMonth: number, lastMonth: number): number {
  if (lastMonth === 0) return thisMonth > 0 ? 100 : 0;
  return percent(thisMonth - lastMonth, lastMonth);
}

/** Paid users of the last 24 h over signups of the last 24 h, in percent; 0 without signups. */
export function conversionRate(paidLast24h: number, signupsLast24h: number): number {
  return signupsLast24h === 0 ? 0 : percent(paidLast24h, signupsLast24h);
}

/** Of the users older than 30 days, the percent seen active in the last 30 days; 0 without such users. */
export function retentionRate(activeOfEligible: number, eligible: number): number {
  return eligible === 0 ? 0 : percent(activeOfEligible, eligible);
}

export const trendPeriods = ['7d', '30d', '3m', '1y', 'lifetime'] as const;
export type TrendPeriod = (typeof trendPeriods)[number];
export const isTrendPeriod = (p: string): p is TrendPeriod => (trendPeriods as readonly string[]).includes(p);

/** One point of the trend: signups with created_at in [start, end). */
export interface TrendBucket {
  start: Date;
  end: Date;
  date: string;
  label: string;
}

const MONTH_LABELS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const startOfDay = (t: Date) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
const startOfMonth = (t: Date, plus = 0) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + plus, 1));
const isoDate = (t: Date) => t.toISOString().slice(0, 10);
const dayLabel = (t: Date) => `${MONTH_LABELS[t.getUTCMonth()]} ${t.getUTCDate()}`;
const monthLabel = (t: Date) => `${MONTH_LABELS[t.getUTCMonth()]} ${t.getUTCFullYear()}`;

function daily(now: Date, days: number): TrendBucket[] {
  const today = startOfDay(now);
  return Array.from({ length: days }, (_, i) => {
    const start = new Date(today.getTime() - (days - 1 - i) * DAY);
    return { start, end: new Date(start.getTime() + DAY), date: isoDate(start), label: dayLabel(start) };
  });
}

function monthly(from: Date, now: Date): TrendBucket[] {
  const out: TrendBucket[] = [];
  for (let start = startOfMonth(from); start <= now; start = startOfMonth(start, 1))
    out.push({ start, end: startOfMonth(start, 1), date: isoDate(start), label: monthLabel(start) });
  return out;
}

/**
 * The buckets of a period, oldest first, the last one holding today (UTC): 7d and 30d are days;
 * 3m is the last 91 days in 13 weeks; 1y the last 12 calendar months; lifetime every month from
 * the first signup's (or this month alone before any signup).
 */
export function trendBuckets(period: TrendPeriod, now: Date, firstSignup?: Date): TrendBucket[] {
  switch (period) {
    case '7d':
      return daily(now, 7);
    case '30d':
      return daily(now, 30);
    case '3m': {
      const end = new Date(startOfDay(now).getTime() + DAY);
      return Array.from({ length: 13 }, (_, i) => {
        const start = new Date(end.getTime() - (13 - i) * 7 * DAY);
        return {
          start,
          end: new Date(start.getTime() + 7 * DAY),
          date: isoDate(start),
          label: `Week of ${dayLabel(start)}`,
        };
      });
    }
    case '1y':
      return monthly(startOfMonth(now, -11), now);
    case 'lifetime':
      return monthly(firstSignup && firstSignup < now ? firstSignup : now, now);
  }
}

/** Counts signups into buckets from per-day counts (day = UTC midnight). */
export function fillBuckets(
  buckets: TrendBucket[],
  perDay: Array<{ day: Date; signups: number }>,
): Array<{ date: string; label: string; signups: number }> {
  const out = buckets.map((b) => ({ date: b.date, label: b.label, signups: 0 }));
  for (const { day, signups } of perDay) {
    const i = buckets.findIndex((b) => day >= b.start && day < b.end);
    if (i >= 0) out[i]!.signups += signups;
  }
  return out;
}

/** Calendar month windows (UTC) for the growth figure. */
export function monthWindows(now: Date): { thisMonth: Date; lastMonth: Date; nextMonth: Date } {
  return { thisMonth: startOfMonth(now), lastMonth: startOfMonth(now, -1), nextMonth: startOfMonth(now, 1) };
}
