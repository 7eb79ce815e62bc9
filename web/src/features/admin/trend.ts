// The Signups Trend chart's periods and its one selected point.
import type { TrendPeriod } from './admin-api';

export const TREND_PERIODS: { value: TrendPeriod; label: string; description: string }[] = [
  { value: '7d', label: '7D', description: 'Last 7 days' },
  { value: '30d', label: '30D', description: 'Last 30 days' },
  { value: '3m', label: '3M', description: 'Last 3 months, by week' },
  { value: '1y', label: '1Y', description: 'Last 12 months, by month' },
  { value: 'lifetime', label: 'Lifetime', description: 'Every month since the first sign-up' },
];

export interface TrendPoint {
  date: string;
  label: string;
  signups: number;
}

/** Selecting the selected point again deselects it. */
export const toggleSelection = (selected: number | null, index: number): number | null =>
  selected === index ? null : index;

export const totalSignups = (points: TrendPoint[]) => points.reduce((sum, p) => sum + p.signups, 0);

export const pointSummary = (p: TrendPoint) => `${p.label}: ${p.signups} ${p.signups === 1 ? 'signup' : 'signups'}`;
