// The chart's alerts evaluated by Prometheus's own rule engine (issue 30, ADR 0305): the rule groups
// of the PrometheusRule that `helm template` renders are written out as a rule file, which
// `promtool check rules` must accept and `promtool test rules` must pass with the cases of
// charts/flatlay/monitoring/alerts.test.yaml (recorded series in, the alerts expected out, with
// their labels and rendered annotations). promtool is the real one (github.com/prometheus/prometheus,
// built by scripts/infra/prometheus.mjs). What tests/monitoring.int.spec.ts checks statically
// (PromQL grammar, documented names, runbooks) is not repeated here.
import { afterAll, beforeAll, describe, it } from 'vitest';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { renderChart, repoRoot } from './support/helm.js';

const PROMTOOL = join(repoRoot, '.infra', 'bin', 'promtool');
const RULE_TESTS = join(repoRoot, 'charts', 'flatlay', 'monitoring', 'alerts.test.yaml');

// biome-ignore lint/suspicious/noExplicitAny: a rendered PrometheusRule and promtool's test file are untyped
type Json = any;

/** promtool's exit status and its output, standard error merged in order (it reports failures there). */
function promtool(args: string[], cwd: string) {
  const r = spawnSync('sh', ['-c', '"$0" "$@" 2>&1', PROMTOOL, ...args], { cwd, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status ?? 1, out: r.stdout };
}

describe('the chart’s alerts under promtool', () => {
  let dir: string;
  let spec: Json;

  beforeAll(() => {
    if (!existsSync(PROMTOOL))
      throw new Error('promtool is missing at .infra/bin/promtool: run `node scripts/infra.mjs install`');
    const rules = renderChart(['--set', 'monitoring.rules.enabled=true']).filter((o) => o.kind === 'PrometheusRule');
    assert.equal(rules.length, 1, 'one PrometheusRule');
    spec = rules[0].spec;
    // The test file names its rule file `alerts.yaml`, beside it: the rendered rules take that name.
    dir = mkdtempSync(join(tmpdir(), 'flatlay-promtool-'));
    writeFileSync(join(dir, 'alerts.yaml'), stringify(spec));
    copyFileSync(RULE_TESTS, join(dir, 'alerts.test.yaml'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const alertNames = (): string[] => spec.groups.flatMap((g: Json) => g.rules.map((r: Json) => r.alert));

  it('promtool check rules accepts the rendered rule groups', () => {
    const r = promtool(['check', 'rules', 'alerts.yaml'], dir);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, new RegExp(`SUCCESS: ${alertNames().length} rules found`), r.out);
  });

  it('every alert has a case where it fires and a case where it must not', () => {
    const cases = parse(readFileSync(RULE_TESTS, 'utf8')).tests.flatMap((t: Json) => t.alert_rule_test ?? []);
    const names = alertNames();
    assert.ok(names.length >= 8, `the alerts of alerts.yaml (${names.length})`);
    for (const name of names) {
      const own = cases.filter((c: Json) => c.alertname === name);
      assert.ok(
        own.some((c: Json) => c.exp_alerts?.length > 0),
        `${name}: a case in alerts.test.yaml where it fires`,
      );
      assert.ok(
        own.some((c: Json) => (c.exp_alerts ?? []).length === 0),
        `${name}: a case in alerts.test.yaml where it does not fire`,
      );
    }
    // No case names an alert that does not exist (promtool would only see it never fire).
    for (const c of cases) assert.ok(names.includes(c.alertname), `alerts.test.yaml: ${c.alertname} is no alert`);
  });

  it('promtool test rules passes every case', () => {
    const r = promtool(['test', 'rules', 'alerts.test.yaml'], dir);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /SUCCESS/, r.out);
  });

  it('fails for each alert whose rule no longer does what its cases say', () => {
    // Every alert waits a day before it fires, in a copy beside its cases (one promtool run, not
    // one per alert: each evaluation takes seconds): the firing case of every alert must fail.
    const slowed = structuredClone(spec);
    for (const g of slowed.groups) for (const r of g.rules) r.for = '1d';
    mkdirSync(join(dir, 'slowed'));
    writeFileSync(join(dir, 'slowed', 'alerts.yaml'), stringify(slowed));
    copyFileSync(RULE_TESTS, join(dir, 'slowed', 'alerts.test.yaml'));
    const r = promtool(['test', 'rules', 'slowed/alerts.test.yaml'], dir);
    assert.notEqual(r.status, 0, r.out);
    for (const name of alertNames())
      assert.match(
        r.out,
        new RegExp(`alertname: ${name}, time: \\d+m, \\s*exp:\\[\\s*0:`),
        `${name} with for: 1d still passes`,
      );
  });
});
