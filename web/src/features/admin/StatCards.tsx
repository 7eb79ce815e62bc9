import type { Overview, PaidUserStats, SignupStats } from './admin-api';
import { formatCount } from '../../lib/format-count';

const n = (value: number | undefined) => (value === undefined ? '—' : formatCount(value));

function StatCard({ title, value, detail }: { title: string; value: string; detail: string }) {
  return (
    <article className="card stat-card" aria-label={title}>
      <h2 className="stat-card__title">{title}</h2>
      <p className="stat-card__value">{value}</p>
      <p className="small muted">{detail}</p>
    </article>
  );
}

/** New Signups Today, Paid Users Today and Anonymous Purchases (one-time image purchases). */
export function StatCards({
  signups,
  paid,
  overview,
}: {
  signups?: SignupStats;
  paid?: PaidUserStats;
  overview?: Overview;
}) {
  const totalUsers = signups?.total_users ?? overview?.total_users;
  return (
    <div className="stat-grid">
      <StatCard title="New Signups Today" value={n(signups?.new_signups_24h)} detail={`${n(totalUsers)} total users`} />
      <StatCard
        title="Paid Users Today"
        value={n(paid?.paid_users_last_24h)}
        detail={`${n(paid?.total_paid_users)} total paid users${
          overview ? ` · ${overview.conversion_rate.toFixed(1)}% conversion` : ''
        }`}
      />
      <StatCard
        title="Anonymous Purchases"
        value={n(overview?.anonymous_purchases)}
        detail="One-time image purchases"
      />
      <StatCard
        title="Chargebacks"
        value={n(overview?.payment_disputes)}
        detail={`${n(overview?.payment_disputes_open)} open · taken back like refunds`}
      />
    </div>
  );
}
