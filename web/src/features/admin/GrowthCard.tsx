import type { Overview } from './admin-api';
import { formatGrowth, growthPercent } from './stats';
import { formatCount } from '../../lib/format-count';

/** User Growth Trend: sign-ups this month against last month. */
export function GrowthCard({ overview }: { overview?: Overview }) {
  const growth = overview ? growthPercent(overview.signups_this_month, overview.signups_last_month) : undefined;
  return (
    <article className="card" aria-labelledby="growth-title">
      <h2 id="growth-title">User Growth Trend</h2>
      <dl className="figures">
        <dt>This Month</dt>
        <dd>{overview ? formatCount(overview.signups_this_month) : '—'}</dd>
        <dt>Last Month</dt>
        <dd>{overview ? formatCount(overview.signups_last_month) : '—'}</dd>
        <dt>Growth</dt>
        <dd className={growth === undefined ? '' : growth >= 0 ? 'growth--up' : 'growth--down'}>
          {growth === undefined ? '—' : formatGrowth(growth)}
        </dd>
        <dt>30-day Retention</dt>
        <dd>{overview ? `${overview.user_retention_30d.toFixed(1)}%` : '—'}</dd>
      </dl>
    </article>
  );
}
