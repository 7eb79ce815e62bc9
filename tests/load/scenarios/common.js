// What every scenario of the load suite shares (k6 modules, run by tests/load/load.mjs, `npm run load`,
// and tests/load-smoke.e2e.spec.ts). Env:
//   BASE       the product's origin (http://127.0.0.1:PORT)
//   PROFILE    `load` (default): VUS connections, each as fast as it goes, for DURATION, with the
//              scenario's error and latency thresholds; `smoke`: a few iterations a second for
//              DURATION, thresholds on errors only
//   DURATION   k6 duration (load: 15s, smoke: 4s); VUS overrides the scenario's connections
//   SUMMARY    file the figures go to (JSON, read by the runner)
// Requests of the scenario proper carry the tag part:main; setup's (signing users up, the admin in)
// do not, so the figures and thresholds are the scenario's own.
import http from 'k6/http';
import { check, fail } from 'k6';
import { Trend } from 'k6/metrics';

/**
 * @import { BatchRequest, Params, Response } from 'k6/http'
 * @import { SummaryData } from 'k6/summary'
 */
/**
 * A scenario's shape (scenarioOptions' argument).
 * @typedef {object} Shape
 * @property {number} vus
 * @property {string[]} [latency]
 * @property {Record<string, string[]>} [loadThresholds]
 * @property {Record<string, string[]>} [thresholds]
 * @property {{ rate?: number, timeUnit?: string, maxVUs?: number }} [smoke]
 * @property {string} [gracefulStop]
 */
/** @typedef {(name: string) => Record<string, number> | undefined} MetricValues */

export const BASE = /** @type {string} */ (__ENV.BASE);
export const SMOKE = __ENV.PROFILE === 'smoke';
export const PASSWORD = 'load suite password 1';
const DURATION = __ENV.DURATION || (SMOKE ? '4s' : '15s');

/** How long setup took (ms): the figures' rates are per second of the scenario proper. */
const setupMs = new Trend('setup_ms', true);

if (!BASE) fail('BASE (the product origin) is required');

/**
 * The options of a scenario: `vus` connections in the load profile, `smoke.rate` iterations per
 * `smoke.timeUnit` in the smoke profile; `latency` the load profile's thresholds on the scenario's
 * request durations (e.g. ['p(99)<200']) and `loadThresholds` its others (latencies of its own
 * metrics); `thresholds` more, on errors (both profiles).
 * @param {Shape} shape
 */
export function scenarioOptions({
  vus,
  latency = [],
  loadThresholds = {},
  thresholds = {},
  smoke = {},
  gracefulStop = '30s',
}) {
  const load = {
    executor: 'constant-vus',
    vus: Number(__ENV.VUS || vus),
    duration: DURATION,
    gracefulStop,
    tags: { part: 'main' },
  };
  const light = {
    executor: 'constant-arrival-rate',
    rate: smoke.rate ?? 2,
    timeUnit: smoke.timeUnit ?? '1s',
    duration: DURATION,
    preAllocatedVUs: 2,
    maxVUs: maxVUs({ vus, smoke }),
    gracefulStop,
    tags: { part: 'main' },
  };
  return {
    summaryTrendStats: ['avg', 'p(50)', 'p(90)', 'p(99)', 'max'],
    // Setup signs users in; a scenario only needs its status codes and what it parses.
    setupTimeout: '180s',
    scenarios: { main: SMOKE ? light : load },
    thresholds: {
      'http_reqs{part:main}': ['count>0'],
      'http_req_failed{part:main}': ['rate==0'],
      checks: ['rate==1'],
      ...(SMOKE ? {} : { 'http_req_duration{part:main}': latency, ...loadThresholds }),
      ...thresholds,
    },
  };
}

/**
 * The most VUs a scenario of this shape (scenarioOptions' argument) runs: users are set up per VU.
 * @param {Pick<Shape, 'vus' | 'smoke'>} shape
 */
export const maxVUs = ({ vus, smoke = {} }) => (SMOKE ? (smoke.maxVUs ?? 4) : Number(__ENV.VUS || vus));

/**
 * A scenario's setup, timed (its requests are not the scenario's: they carry no part:main tag).
 * @template T
 * @param {() => T} fn
 */
export const timedSetup = (fn) => () => {
  const started = Date.now();
  const data = fn();
  setupMs.add(Date.now() - started);
  return data;
};

/** @param {unknown} body @param {string} [token] */
export const json = (body, token) => ({
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify(body),
});

/** @param {string} token @param {string} [name] @returns {Params} */
export const bearer = (token, name) => ({ headers: { authorization: `Bearer ${token}` }, tags: name ? { name } : {} });

/** A unique address per call: run id, VU (0 in setup), iteration (none in setup), a counter. */
let counter = 0;
/** @param {string} run @param {string} [prefix] */
export const uniqueEmail = (run, prefix = 'load') =>
  `${prefix}.${run}.${__VU}.${typeof __ITER === 'number' ? __ITER : 's'}.${counter++}@example.com`;

export const runId = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e9).toString(36)}`;

/**
 * Registers `n` new users, ten at a time, and answers their access tokens.
 * @param {number} n @param {string} run @param {string} [prefix]
 */
export function registerUsers(n, run, prefix) {
  /** @type {string[]} */
  const tokens = [];
  while (tokens.length < n) {
    /** @type {BatchRequest[]} */
    const batch = [];
    for (let i = 0; i < Math.min(10, n - tokens.length); i++)
      batch.push([
        'POST',
        `${BASE}/api/auth/register`,
        JSON.stringify({ email: uniqueEmail(run, prefix), password: PASSWORD }),
        { headers: { 'content-type': 'application/json' }, tags: { name: 'POST /api/auth/register' } },
      ]);
    for (const res of http.batch(batch)) {
      if (!check(res, { 'register: 201': (r) => r.status === 201 }))
        fail(`register answered ${res.status}: ${String(res.body).slice(0, 300)}`);
      tokens.push(String(res.json('access_token')));
    }
  }
  return tokens;
}

/**
 * Signs the administrator in (ADMIN_EMAIL, ADMIN_PASSWORD) and answers the admin token.
 * @returns {string}
 */
export function adminLogin() {
  const res = http.post(
    `${BASE}/api/admin/login`,
    { username: __ENV.ADMIN_EMAIL ?? '', password: __ENV.ADMIN_PASSWORD ?? '' },
    { tags: { name: 'POST /api/admin/login' } },
  );
  if (!check(res, { 'admin login: 200': (r) => r.status === 200 }))
    fail(`admin login answered ${res.status}: ${String(res.body).slice(0, 300)}`);
  return String(res.json('access_token'));
}

/** @param {string} d */
const seconds = (d) => {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(d);
  if (!m) return Number.NaN;
  const unit = /** @type {'ms' | 's' | 'm' | 'h'} */ (m[2]);
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600 }[unit];
};

/**
 * The figures the runner reads: the scenario's requests (per second of the scenario proper, setup
 * left out), their p50 and p99, the error rate, iterations, k6's verdict per threshold, and
 * `extra` (a scenario's own figures, e.g. generations).
 * @param {SummaryData} data
 * @param {(v: MetricValues) => Record<string, unknown>} [extra]
 */
export function summaryOf(data, extra = () => ({})) {
  const m = data.metrics;
  /** @type {MetricValues} */
  const v = (name) => (m[name] ? m[name].values : undefined);
  const elapsedS = (data.state.testRunDurationMs - (v('setup_ms')?.max ?? 0)) / 1000;
  const requests = v('http_reqs{part:main}')?.count ?? 0;
  const duration = v('http_req_duration{part:main}');
  const iterations = v('iterations')?.count ?? 0;
  /** @type {Record<string, boolean>} */
  const thresholds = {};
  for (const [name, metric] of Object.entries(m))
    if (metric)
      for (const [rule, outcome] of Object.entries(metric.thresholds ?? {}))
        thresholds[`${name}: ${rule}`] = outcome.ok;
  return {
    profile: SMOKE ? 'smoke' : 'load',
    duration: DURATION,
    seconds: elapsedS > 0 ? elapsedS : seconds(DURATION),
    requests,
    perSecond: elapsedS > 0 ? requests / elapsedS : 0,
    p50: duration?.['p(50)'],
    p99: duration?.['p(99)'],
    max: duration?.max,
    errorRate: v('http_req_failed{part:main}')?.rate ?? 0,
    checksFailed: v('checks')?.fails ?? 0,
    iterations,
    iterationsPerSecond: elapsedS > 0 ? iterations / elapsedS : 0,
    dropped: v('dropped_iterations')?.count ?? 0,
    thresholds,
    ...extra(v),
  };
}

/**
 * handleSummary of every scenario: the figures into SUMMARY, a short line on stdout.
 * @param {SummaryData} data
 * @param {(v: MetricValues) => Record<string, unknown>} [extra]
 */
export function writeSummary(data, extra) {
  const figures = summaryOf(data, extra);
  /** @type {Record<string, string>} */
  const out = { stdout: `${JSON.stringify(figures)}\n` };
  if (__ENV.SUMMARY) out[__ENV.SUMMARY] = JSON.stringify(figures);
  return out;
}
