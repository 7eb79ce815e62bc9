// What the chart installs for an operator's Prometheus and Grafana (monitoring.*): PodMonitors on
// every component's metrics port, the PrometheusRule of charts/flatlay/monitoring/alerts.yaml and
// the dashboards of charts/flatlay/monitoring/dashboards, rendered by the real helm binary. Every
// PromQL expression (alerts, dashboard panels, dashboard variables) is parsed with the Prometheus
// project's own PromQL grammar (@prometheus-io/lezer-promql) and may name only series the product
// exports: the list of docs/operations.md "Metrics", which gateway/test/metrics.int.spec.ts holds
// to a real scrape. Each alert has what an on-call needs: for, severity, summary, description and a
// runbook_url that is a section of docs/operations.md. Their evaluation on recorded series
// (`promtool test rules`) is tests/monitoring-rules.int.spec.ts; a real Prometheus scraping the
// product with them loaded, tests/monitoring-scrape.int.spec.ts.
import { describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { parse } from 'yaml';
import { documentedSeries } from './support/documented-metrics.js';
import { renderChart } from './support/helm.js';

const root = resolve(import.meta.dirname, '..');
const chartDir = join(root, 'charts', 'flatlay');
const ALERTS = join(chartDir, 'monitoring', 'alerts.yaml');
const DASHBOARDS = join(chartDir, 'monitoring', 'dashboards');
/** The dashboards' Prometheus: Grafana's datasource variable. */
const GRAFANA_DATASOURCE = ['$', '{datasource}'].join('');
const RUNBOOK_BASE = 'https://github.com/flatlay/flatlay/blob/main/docs/operations.md';

// biome-ignore lint: rendered Kubernetes objects and Grafana JSON are untyped
type Json = any;

const render = (args: string[]): Json[] => renderChart(args);

/** The metric names a PromQL expression selects; throws where the expression does not parse. */
function selectedMetrics(expr: string): string[] {
  const tree = parser.parse(expr);
  const names: string[] = [];
  const errors: number[] = [];
  const cursor = tree.cursor();
  do {
    if (cursor.type.isError) errors.push(cursor.from);
    const text = expr.slice(cursor.from, cursor.to);
    if (cursor.type.name === 'Identifier' && cursor.node.parent?.type.name === 'VectorSelector') names.push(text);
    // A selector by {__name__=...} would escape the name check: none is written.
    if (cursor.type.name === 'LabelName' && text === '__name__') errors.push(cursor.from);
  } while (cursor.next());
  if (errors.length) throw new Error(`does not parse as PromQL at ${errors.join(', ')}: ${expr}`);
  if (names.length === 0) throw new Error(`selects no metric: ${expr}`);
  return names;
}

/** A dashboard's query with Grafana's variables as Prometheus would see them. */
const grafanaToPromql = (q: string) =>
  q.replace(/\$__(rate_interval|interval|range)\b/g, '5m').replace(/\$\{?(\w+)\}?/g, 'var_$1');

/** The route templates the gateway serves (its OpenAPI document), as http_route spells them. */
const routes = Object.keys(
  JSON.parse(readFileSync(join(root, 'gateway', 'openapi', 'openapi.json'), 'utf8')).paths,
).map((p) => `/api${p.replace(/\{(\w+)\}/g, ':$1')}`);

/** Each alternative of every http_route matcher must be, or match, a route the gateway serves. */
function checkRoutes(expr: string, where: string) {
  for (const [, op, value] of expr.matchAll(/http_route\s*(=~|=|!=|!~)\s*"([^"]*)"/g)) {
    for (const alt of op!.includes('~') ? value!.split('|') : [value!]) {
      const re = new RegExp(`^(?:${alt})$`);
      assert.ok(
        routes.some((r) => re.test(r)),
        `${where}: http_route "${alt}" is no route of the gateway`,
      );
    }
  }
}

/** GitHub's anchor of a Markdown heading. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const operationsAnchors = new Set(
  [...readFileSync(join(root, 'docs', 'operations.md'), 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)),
);

const alertRules = (): Json[] => parse(readFileSync(ALERTS, 'utf8')).groups.flatMap((g: Json) => g.rules);
const dashboards = (): Array<[string, Json]> =>
  readdirSync(DASHBOARDS)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f, JSON.parse(readFileSync(join(DASHBOARDS, f), 'utf8'))]);
/** Every query of a dashboard: its panels' targets and its query variables. */
const dashboardQueries = (d: Json): Array<[string, string]> => [
  ...d.panels.flatMap((p: Json) => (p.targets ?? []).map((t: Json) => [`${p.title} ${t.refId}`, t.expr])),
  ...d.templating.list
    .filter((v: Json) => v.type === 'query')
    .map((v: Json) => {
      // label_values(<metric>, <label>): Grafana's function around a selector.
      const q = typeof v.query === 'string' ? v.query : v.query.query;
      const m = /^label_values\((.+),\s*\w+\)$/.exec(q);
      assert.ok(m, `variable ${v.name}: ${q} is label_values(<selector>, <label>)`);
      return [`variable ${v.name}`, m[1]!];
    }),
];

describe('the chart’s monitoring: PodMonitors, alerts and dashboards', () => {
  const exported = documentedSeries();

  it('the parser refuses what is not PromQL, and finds every selected metric', () => {
    assert.throws(() => selectedMetrics('sum(rate(flatlay_outbox_backlog[5m])'), /does not parse/);
    assert.throws(() => selectedMetrics('{__name__="flatlay_outbox_backlog"}'), /does not parse|selects no metric/);
    assert.deepEqual(
      selectedMetrics('max by (a) (x_total{b="c"}) / on() group_left y unless z offset 10m > 1').sort(),
      ['x_total', 'y', 'z'],
    );
  });

  it('every alert is parsed PromQL naming only exported series, and has for, severity, summary, description and a runbook section', () => {
    const rules = alertRules();
    assert.ok(rules.length >= 8);
    const names = new Set<string>();
    for (const r of rules) {
      assert.ok(r.alert && !names.has(r.alert), `a unique alert name: ${r.alert}`);
      names.add(r.alert);
      assert.deepEqual(
        Object.keys(r).sort(),
        ['alert', 'annotations', 'expr', 'for', 'labels'],
        `${r.alert}: alert, expr, for, labels, annotations`,
      );
      assert.match(r.for, /^\d+[smh]$/, `${r.alert}: for`);
      assert.ok(['critical', 'warning'].includes(r.labels.severity), `${r.alert}: severity ${r.labels.severity}`);
      for (const a of ['summary', 'description', 'runbook_url'])
        assert.ok(typeof r.annotations[a] === 'string' && r.annotations[a].length > 10, `${r.alert}: ${a}`);
      const [base, hash] = r.annotations.runbook_url.split('#');
      assert.equal(base, RUNBOOK_BASE, `${r.alert}: runbook in docs/operations.md`);
      assert.equal(hash, r.alert.toLowerCase(), `${r.alert}: its own runbook section`);
      assert.ok(operationsAnchors.has(hash), `${r.alert}: docs/operations.md has a section #${hash}`);
      for (const name of selectedMetrics(r.expr))
        assert.ok(exported.has(name), `${r.alert}: ${name} is not a series the product exports`);
      checkRoutes(r.expr, r.alert);
    }
    // What the alerts watch (issue 30): the API's SLO burn (fast and slow windows), the money
    // routes, consumer lag, the outbox, dead letters, the generation queue, webhook signatures.
    const watched = rules.map((r) => r.expr).join('\n');
    for (const series of [
      'http_server_request_duration_count',
      'http_server_request_duration_bucket',
      'flatlay_messaging_consumer_lag',
      'flatlay_outbox_oldest_age',
      'flatlay_messaging_consumer_messages_total',
      'flatlay_image_generation_queue_oldest_wait',
      'flatlay_billing_webhooks_total',
    ])
      assert.ok(watched.includes(series), `an alert watches ${series}`);
    const burn = rules.filter((r) => r.labels.slo === 'api-availability');
    assert.deepEqual(burn.map((r) => r.alert).sort(), [
      'FlatlayApiErrorBudgetBurnFast',
      'FlatlayApiErrorBudgetBurnSlow',
    ]);
    for (const [r, factor, long, short] of [
      [burn.find((b) => b.alert.endsWith('Fast')), '14.4', '1h', '5m'],
      [burn.find((b) => b.alert.endsWith('Slow')), '6', '6h', '30m'],
    ] as const) {
      assert.ok(
        r.expr.includes(`[${long}]`) && r.expr.includes(`[${short}]`),
        `${r.alert}: ${long} and ${short} windows`,
      );
      assert.equal(r.expr.split(`(${factor} * 0.005)`).length - 1, 2, `${r.alert}: ${factor}x the 0.5% budget, twice`);
    }
  });

  it('every dashboard is Grafana JSON whose queries parse and name only exported series', () => {
    const all = dashboards();
    assert.deepEqual(all.map(([f]) => f).sort(), ['flatlay-api.json', 'flatlay-bus.json', 'flatlay-gpu.json']);
    const uids = new Set<string>();
    for (const [file, d] of all) {
      assert.ok(d.uid && !uids.has(d.uid) && d.title, `${file}: a unique uid and a title`);
      uids.add(d.uid);
      assert.ok(d.panels.length > 0, `${file}: panels`);
      for (const p of d.panels) {
        assert.equal(p.datasource?.uid, GRAFANA_DATASOURCE, `${file} ${p.title}: the chosen Prometheus`);
        assert.ok(p.targets?.length > 0, `${file} ${p.title}: queries`);
      }
      for (const [where, q] of dashboardQueries(d)) {
        for (const name of selectedMetrics(grafanaToPromql(q)))
          assert.ok(exported.has(name), `${file} ${where}: ${name} is not a series the product exports`);
        checkRoutes(q, `${file} ${where}`);
        if (!where.startsWith('variable'))
          assert.match(q, /namespace="\$namespace"/, `${file} ${where}: scoped to the chosen namespace`);
      }
    }
  });

  it('a misspelt metric or a broken expression fails the checks above', () => {
    const [rule] = alertRules();
    const misspelt = rule.expr.replace('http_server_request_duration_count', 'http_server_request_duration_total');
    assert.ok(selectedMetrics(misspelt).some((n) => !exported.has(n)));
    assert.throws(() => selectedMetrics(rule.expr.replace(/\)\s*>/, ' >')), /does not parse/);
  });

  it('renders none of it by default (a cluster without the Prometheus Operator installs)', () => {
    const objs = render([]);
    assert.deepEqual(
      objs.filter((o) => o.apiVersion.startsWith('monitoring.coreos.com/') || o.metadata.labels?.grafana_dashboard),
      [],
    );
  });

  it('renders, with the production values, a PodMonitor per component on its metrics port, the alerts and the dashboards', () => {
    const objs = render(['--values', join(chartDir, 'values-prod.yaml')]);
    const deployments = objs.filter(
      (o) => o.kind === 'Deployment' && o.metadata.labels['app.kubernetes.io/name'] === 'flatlay',
    );
    const monitors = objs.filter((o) => o.kind === 'PodMonitor');
    assert.equal(monitors.length, deployments.length, 'one PodMonitor per component');
    for (const d of deployments) {
      const pod = d.spec.template;
      const own = monitors.filter((m) =>
        Object.entries<string>(m.spec.selector.matchLabels).every(([k, v]) => pod.metadata.labels[k] === v),
      );
      assert.equal(own.length, 1, `${d.metadata.name}: one PodMonitor selects its pods`);
      const [endpoint] = own[0].spec.podMetricsEndpoints;
      assert.equal(endpoint.path, '/metrics');
      const port = pod.spec.containers[0].ports.find((p: Json) => p.name === endpoint.port);
      assert.equal(port?.containerPort, 9464, `${d.metadata.name}: the PodMonitor's port is the metrics port`);
    }
    const [rule, ...more] = objs.filter((o) => o.kind === 'PrometheusRule');
    assert.equal(more.length, 0);
    assert.deepEqual(rule.spec, parse(readFileSync(ALERTS, 'utf8')), 'the PrometheusRule is alerts.yaml as written');
    const boards = objs.filter((o) => o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard === '1');
    assert.deepEqual(
      boards.flatMap((b) => Object.values<string>(b.data).map((j) => JSON.parse(j).uid)).sort(),
      dashboards()
        .map(([, d]) => d.uid)
        .sort(),
    );
  });

  it('points the runbooks at monitoring.rules.runbookBaseUrl', () => {
    const objs = render([
      '--set',
      'monitoring.rules.enabled=true',
      '--set',
      'monitoring.rules.runbookBaseUrl=https://wiki.example.com/flatlay',
    ]);
    const urls = objs
      .find((o) => o.kind === 'PrometheusRule')
      .spec.groups.flatMap((g: Json) => g.rules.map((r: Json) => r.annotations.runbook_url));
    assert.equal(urls.length, alertRules().length);
    for (const u of urls) assert.match(u, /^https:\/\/wiki\.example\.com\/flatlay#flatlay\w+$/);
  });
});
