import { useState } from 'react';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { Spinner } from '../../components/Spinner';
import type { TrendPeriod } from './admin-api';
import { useTrend } from './admin-queries';
import { pointSummary, TREND_PERIODS, type TrendPoint, toggleSelection, totalSignups } from './trend';
import { useWidth } from './use-width';

const CHART_HEIGHT = 280;

interface DotProps {
  cx?: number;
  cy?: number;
  index?: number;
  payload?: TrendPoint;
}

function TrendDot({
  cx,
  cy,
  index,
  payload,
  selected,
  onSelect,
}: DotProps & { selected: number | null; onSelect: (index: number) => void }) {
  if (cx === undefined || cy === undefined || index === undefined || !payload) return null;
  const active = index === selected;
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG point has no <button>; role and keys give it one
    <g
      role="button"
      tabIndex={0}
      aria-label={pointSummary(payload)}
      aria-pressed={active}
      className="trend-dot"
      data-index={index}
      onClick={() => onSelect(index)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onSelect(index);
        }
      }}
    >
      <circle cx={cx} cy={cy} r={12} fill="transparent" />
      <circle cx={cx} cy={cy} r={active ? 6 : 4} className={active ? 'trend-dot__mark--active' : 'trend-dot__mark'} />
    </g>
  );
}

/** Signups Trend: one line per period; a point can be selected for its detail, and deselected. */
export function SignupsTrend({ enabled }: { enabled: boolean }) {
  const [period, setPeriod] = useState<TrendPeriod>('7d');
  const [selected, setSelected] = useState<number | null>(null);
  const trend = useTrend(period, enabled);
  const [ref, width] = useWidth<HTMLDivElement>(720);
  const points = trend.data?.points ?? [];
  const chosen = selected === null ? undefined : points[selected];

  function choosePeriod(next: TrendPeriod) {
    setPeriod(next);
    setSelected(null); // a point of another period means nothing here
  }

  const select = (index: number) => setSelected((current) => toggleSelection(current, index));

  return (
    <article className="card trend" aria-labelledby="trend-title">
      <div className="trend__head">
        <h2 id="trend-title">Signups Trend</h2>
        <fieldset className="period-group">
          <legend className="visually-hidden">Period</legend>
          {TREND_PERIODS.map((p) => (
            <button
              key={p.value}
              type="button"
              className={`period-group__option${p.value === period ? ' period-group__option--active' : ''}`}
              aria-pressed={p.value === period}
              title={p.description}
              onClick={() => choosePeriod(p.value)}
            >
              {p.label}
            </button>
          ))}
        </fieldset>
      </div>
      <p className="small muted" aria-live="polite">
        {TREND_PERIODS.find((p) => p.value === period)?.description}
        {trend.data ? ` · ${totalSignups(points)} signups` : ''}
      </p>
      <div ref={ref} className="trend__chart">
        {trend.isPending && enabled ? (
          <Spinner label="Loading the signups trend" />
        ) : trend.isError ? (
          <p className="error-text">Failed to load the signups trend</p>
        ) : (
          <LineChart
            width={width}
            height={CHART_HEIGHT}
            data={points}
            margin={{ top: 12, right: 16, bottom: 4, left: -12 }}
          >
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#4b5563' }} interval="preserveStartEnd" />
            <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: '#4b5563' }} />
            <Tooltip />
            <Line
              type="monotone"
              dataKey="signups"
              name="Signups"
              stroke="#4f46e5"
              strokeWidth={2}
              isAnimationActive={false}
              dot={(props: DotProps) => <TrendDot key={props.index} {...props} selected={selected} onSelect={select} />}
              activeDot={false}
            />
          </LineChart>
        )}
      </div>
      {chosen && (
        <div className="trend__detail" aria-live="polite">
          <p>
            <strong>{chosen.label}</strong> ({chosen.date}): {chosen.signups}{' '}
            {chosen.signups === 1 ? 'signup' : 'signups'}
          </p>
          <button type="button" className="button button--ghost" onClick={() => setSelected(null)}>
            Clear Selection
          </button>
        </div>
      )}
    </article>
  );
}
