// The product's metric names as docs/operations.md "Metrics" documents them, spelt as Prometheus
// shows them: a histogram's row gives its `_bucket`, `_count` and `_sum` series, a counter's name
// already ends in `_total`. The chart's alerts and dashboards are held to this list
// (tests/monitoring.int.spec.ts), and the list to a real scrape (gateway/test/metrics.int.spec.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const OPERATIONS = resolve(import.meta.dirname, '..', '..', 'docs', 'operations.md');

export interface DocumentedMetric {
  /** The name in the table's first column. */
  name: string;
  type: 'counter' | 'gauge' | 'histogram';
  /** The series names a scrape shows for it. */
  series: string[];
}

/** The rows of the "Metrics" table of docs/operations.md. */
export function documentedMetrics(text = readFileSync(OPERATIONS, 'utf8')): DocumentedMetric[] {
  const section = text.split(/^## /m).find((s) => s.startsWith('Metrics\n'));
  if (!section) throw new Error('docs/operations.md has no "## Metrics" section');
  const metrics: DocumentedMetric[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (!line.startsWith('| `') || cells.length < 4) continue;
    const type = /^(counter|gauge|histogram)/.exec(cells[2]!)?.[1] as DocumentedMetric['type'] | undefined;
    if (!type) throw new Error(`docs/operations.md: no type in the metrics row ${line}`);
    for (const [, name] of cells[1]!.matchAll(/`([a-zA-Z_:][a-zA-Z0-9_:]*)`/g)) {
      const series = type === 'histogram' ? ['_bucket', '_count', '_sum'].map((s) => `${name}${s}`) : [name!];
      metrics.push({ name: name!, type, series });
    }
  }
  if (metrics.length === 0) throw new Error('docs/operations.md: the "Metrics" table has no rows');
  return metrics;
}

/** Every series name the documented metrics show in a scrape. */
export const documentedSeries = (): Set<string> => new Set(documentedMetrics().flatMap((m) => m.series));
