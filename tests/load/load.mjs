#!/usr/bin/env node
// `npm run load`: the load suite. Starts bare Express (tests/load/bare-express.mjs, the limit) and the
// product as `npm start` runs it (embedded default: every service, embedded PostgreSQL, in-process
// bus, the in-process generation worker) on a free port, a temporary FLATLAY_DATA_DIR, an
// administrator (ADMIN_EMAIL, ADMIN_PASSWORD) and sign-in rate limits raised for one client address;
// then runs each k6 scenario of tests/load/scenarios/ with its thresholds, one after another:
//
//   sign-up-in                            password hashing by design (no bare Express ratio); first,
//                                         so the admin dashboard reads a table of real size
//   browse, me-balance, admin-dashboard   plain GETs, each compared with bare Express in the same run
//                                         (50, 50 and 10 connections; bare Express runs before and
//                                         after them with 50, and its mean is the limit)
//   generate-poll                         the engine (no bare Express ratio), last
//
// Prints a table (requests/s, iterations/s, p50, p99, error rate, ratio to bare Express, thresholds),
// writes reports/load.json and exits 1 when a threshold failed; stops everything it started.
//
//   LOAD_SECONDS=15           length of each scenario's run
//   LOAD_ONLY=browse,...      only these scenarios
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { installK6 } from '../../scripts/infra/k6.mjs';
import { build, ensureInstalled, repoRoot } from '../../scripts/lib/steps.mjs';
import {
  LOAD_RATE_LIMITS,
  loadDir,
  runK6,
  SCENARIOS,
  startBareExpress,
  startProduct,
  stopChildrenOnSignals,
} from './harness.mjs';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 15);
const only = process.env.LOAD_ONLY?.split(',').map((s) => s.trim());
const scenarios = SCENARIOS.filter((s) => !only || only.includes(s.name));
if (scenarios.length === 0) {
  console.error(`LOAD_ONLY names no scenario (${SCENARIOS.map((s) => s.name).join(', ')})`);
  process.exit(2);
}
const BARE_VUS = 50;
const reports = join(repoRoot, 'reports');
mkdirSync(reports, { recursive: true });
stopChildrenOnSignals();

/** @param {unknown} n @param {number} [d] */
const fmt = (n, d = 0) => (typeof n === 'number' && Number.isFinite(n) ? n.toFixed(d) : '-');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

const k6 = await installK6();
ensureInstalled();
build();

const admin = { ADMIN_EMAIL: 'load.admin@example.com', ADMIN_PASSWORD: randomBytes(18).toString('base64url') };
const loadAtStart = load();
console.log(`› starting bare Express and the product (npm start's embedded default); load average ${loadAtStart}`);
const bare = await startBareExpress();
let product;
/**
 * @import { Scenario, ScenarioFigures } from './harness.d.mts'
 * @typedef {Scenario & { code: number | string | null, figures: Partial<ScenarioFigures>, failedThresholds: string[],
 *   stderr: string, ratioToBare?: number }} Row
 */
/** @type {Row[]} */
const rows = [];
/** @type {ScenarioFigures[]} */
const bareRuns = [];
let failed = false;
try {
  product = await startProduct({
    env: { ...admin, ...LOAD_RATE_LIMITS },
    logFile: join(reports, 'load-product.log'),
  });
  const common = { BASE: product.base, ...admin };

  /** One run of bare Express: 50 connections on a GET, as fast as they go. */
  const bareRun = async () => {
    console.log(`› bare Express, ${BARE_VUS} connections, ${SECONDS} s`);
    const r = await runK6(
      k6,
      join(loadDir, 'hot-path.js'),
      { BASE: bare.base, TARGET: '/api/tokens/balance', MODE: 'max', VUS: String(BARE_VUS), DURATION: `${SECONDS}s` },
      { summaryDir: reports },
    );
    if (!r.summary) throw new Error(`k6 against bare Express failed (${r.code}): ${r.stderr.slice(-2000)}`);
    bareRuns.push(r.summary);
  };
  /** @param {Scenario} s @param {Record<string, string>} [env] */
  const scenarioRun = (s, env = {}) =>
    runK6(k6, s.script, { ...common, DURATION: `${SECONDS}s`, VUS: String(s.vus), ...env }, { summaryDir: reports });

  // Warm both up (JIT, connection pools, the gateway's cache): a short light run of each GET scenario.
  console.log('› warming up');
  const firstBare = scenarios.findIndex((s) => s.againstBare);
  const lastBare = scenarios.findLastIndex((s) => s.againstBare);
  if (firstBare >= 0)
    await runK6(k6, join(loadDir, 'hot-path.js'), {
      BASE: bare.base,
      TARGET: '/',
      MODE: 'max',
      VUS: '10',
      DURATION: '3s',
    });
  for (const s of scenarios.filter((row) => row.againstBare)) await scenarioRun(s, { DURATION: '3s', VUS: '10' });

  for (const [i, s] of scenarios.entries()) {
    if (i === firstBare) await bareRun();
    console.log(`› ${s.name} (${s.what}), ${s.vus} connections, ${SECONDS} s`);
    const r = await scenarioRun(s);
    const failedThresholds = Object.entries(r.summary?.thresholds ?? {})
      .filter(([, ok]) => !ok)
      .map(([t]) => t);
    if (r.code !== 0) failed = true;
    rows.push({
      ...s,
      code: r.code,
      figures: r.summary ?? {},
      failedThresholds,
      stderr: r.code === 0 ? '' : r.stderr.slice(-1500),
    });
    if (i === lastBare) await bareRun();
  }
} finally {
  if (product) await product.stop();
  await bare.stop();
}

const bareRate = bareRuns.length ? bareRuns.reduce((a, b) => a + b.perSecond, 0) / bareRuns.length : Number.NaN;
const loadAtEnd = load();
console.log('');
console.log(
  `Load suite: the embedded default (\`npm start\`), each scenario ${SECONDS} s; ${cpus().length} cores, load average ${loadAtStart} at the start, ${loadAtEnd} at the end`,
);
if (bareRuns.length)
  console.log(
    `bare Express (the limit), ${BARE_VUS} connections: ${bareRuns.map((b) => fmt(b.perSecond)).join(' and ')} requests/s (before and after the GET scenarios), p99 ${bareRuns.map((b) => fmt(b.p99, 1)).join(' and ')} ms`,
  );
console.log('');
console.log(
  '| scenario | connections | requests/s | iterations/s | p50 (ms) | p99 (ms) | errors | x bare Express | thresholds |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  const f = r.figures;
  const ratio = r.againstBare && f.perSecond ? f.perSecond / bareRate : Number.NaN;
  r.ratioToBare = Number.isFinite(ratio) ? ratio : undefined;
  const verdict =
    r.code === 0
      ? 'met'
      : r.failedThresholds.length
        ? `FAILED: ${r.failedThresholds.join('; ')}`
        : `k6 exited ${r.code}`;
  console.log(
    `| ${r.name} | ${r.vus} | ${fmt(f.perSecond)} | ${fmt(f.iterationsPerSecond, 1)} | ${fmt(f.p50, 1)} | ${fmt(f.p99, 1)} | ${f.errorRate !== undefined && Number.isFinite(f.errorRate) ? `${fmt(f.errorRate * 100, 2)} %` : '-'} | ${Number.isFinite(ratio) ? fmt(ratio, 2) : '-'} | ${verdict} |`,
  );
}
const gen = rows.find((r) => r.name === 'generate-poll');
if (gen)
  console.log(
    `\ngenerate-poll: ${gen.figures.generationsCompleted} of ${gen.figures.generations} generations completed, upload to result p50 ${fmt(Number(gen.figures.generationP50) / 1000, 1)} s, p99 ${fmt(Number(gen.figures.generationP99) / 1000, 1)} s (polling once a second)`,
  );
for (const r of rows.filter((row) => row.stderr)) console.log(`\n${r.name}: k6 said\n${r.stderr}`);
writeFileSync(
  join(reports, 'load.json'),
  `${JSON.stringify({ at: new Date().toISOString(), seconds: SECONDS, loadAtStart, loadAtEnd, bare: bareRuns, rows }, null, 2)}\n`,
);
console.log(failed ? '\nSome thresholds failed.' : '\nEvery threshold was met.');
process.exit(failed ? 1 : 0);
