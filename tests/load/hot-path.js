// One k6 scenario of the API hot path (run by tests/load/bench-api.mjs, `npm run bench:api`).
// Env: BASE (origin), TARGET (path), TOKEN (bearer, optional), MODE `max` (VUS connections as fast
// as they go) or `rate` (RATE requests/s, open model), DURATION, EXPECT (status), SUMMARY (file).
import http from 'k6/http';
import { check } from 'k6';

const mode = __ENV.MODE || 'max';
const duration = __ENV.DURATION || '10s';
const expectStatus = Number(__ENV.EXPECT || 200);

export const options = {
  discardResponseBodies: false,
  summaryTrendStats: ['avg', 'p(50)', 'p(90)', 'p(99)', 'max'],
  scenarios: {
    hot:
      mode === 'rate'
        ? {
            executor: 'constant-arrival-rate',
            rate: Number(__ENV.RATE || 500),
            timeUnit: '1s',
            duration,
            preAllocatedVUs: 100,
            maxVUs: 400,
          }
        : { executor: 'constant-vus', vus: Number(__ENV.VUS || 50), duration },
  },
};

/** @type {import('k6/http').Params} */
const params = {
  headers: __ENV.TOKEN ? { Authorization: `Bearer ${__ENV.TOKEN}` } : {},
  responseCallback: http.expectedStatuses(expectStatus),
};
const url = `${__ENV.BASE}${__ENV.TARGET}`;

export default function () {
  const res = http.get(url, params);
  check(res, { [`status ${expectStatus}`]: (r) => r.status === expectStatus });
}

/** @param {import('k6/summary').SummaryData} data */
export function handleSummary(data) {
  /** @param {string} name */
  const v = (name) => data.metrics[name]?.values ?? {};
  const d = v('http_req_duration');
  const figures = {
    requests: v('http_reqs').count,
    perSecond: v('http_reqs').rate,
    p50: d['p(50)'],
    p99: d['p(99)'],
    max: d.max,
    failedRate: v('http_req_failed').rate ?? 0,
    dropped: v('dropped_iterations').count ?? 0,
  };
  // Without SUMMARY the figures go to stdout (before, k6 wrote them to a file named "undefined").
  return __ENV.SUMMARY ? { [__ENV.SUMMARY]: JSON.stringify(figures) } : { stdout: `${JSON.stringify(figures)}\n` };
}
