import type { Overview } from './admin-api';
import { barPercent, PLAN_LABELS, type PlanName, planColour } from './stats';
import { formatCount } from '../../lib/format-count';

const ROWS: PlanName[] = ['lite', 'studio', 'unlimited', 'none'];

/** Plan Distribution: Lite, Studio, Unlimited and No Plan (Bulk too once anyone holds it). */
export function PlanDistribution({ overview }: { overview?: Overview }) {
  const plans = overview?.plan_distribution;
  const rows: PlanName[] = plans && plans.bulk > 0 ? ['lite', 'studio', 'bulk', 'unlimited', 'none'] : ROWS;
  const total = plans ? plans.lite + plans.studio + plans.bulk + plans.unlimited + plans.none : 0;
  return (
    <article className="card" aria-labelledby="plans-title">
      <h2 id="plans-title">Plan Distribution</h2>
      <ul className="plan-bars">
        {rows.map((plan) => {
          const count = plans?.[plan] ?? 0;
          return (
            <li key={plan} className="plan-bars__row">
              <span className={`plan-badge plan-badge--${planColour(plan)}`}>{PLAN_LABELS[plan]}</span>
              {/* The count beside it is what a screen reader reads; the bar is its picture. */}
              <span className="plan-bars__track" aria-hidden="true">
                <span
                  className={`plan-bars__bar plan-bars__bar--${planColour(plan)}`}
                  style={{ width: `${barPercent(count, total)}%` }}
                />
              </span>
              <span className="plan-bars__count">{plans ? formatCount(count) : '—'}</span>
            </li>
          );
        })}
      </ul>
    </article>
  );
}
