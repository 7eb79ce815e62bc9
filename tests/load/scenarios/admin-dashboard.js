// Admin dashboard: the operator's dashboard as the web app loads it: the first page of the users
// table (GET /api/admin/users?q=&page=1&page_size=50) and the four figures (sign-ups, paid users,
// overview, the 30-day trend). Setup signs the administrator in (POST /api/admin/login, form-encoded,
// ADMIN_EMAIL and ADMIN_PASSWORD as the product was started with). See common.js for the profiles.
import http from 'k6/http';
import { check } from 'k6';
import { adminLogin, BASE, bearer, scenarioOptions, timedSetup, writeSummary } from './common.js';

export const options = scenarioOptions({
  vus: 10,
  latency: ['p(50)<200', 'p(99)<1000'],
  smoke: { rate: 1 },
});

export const setup = timedSetup(() => ({ token: adminLogin() }));

/** @type {Array<[path: string, valid: (r: import('k6/http').Response) => boolean]>} */
const paths = [
  ['/api/admin/users?q=&page=1&page_size=50', (r) => Array.isArray(r.json('users'))],
  ['/api/admin/stats/signups', (r) => typeof r.json('total_users') === 'number'],
  ['/api/admin/stats/paid-users', (r) => typeof r.json('total_paid_users') === 'number'],
  ['/api/admin/stats/overview', (r) => typeof r.json('conversion_rate') === 'number'],
  ['/api/admin/stats/trend?period=30d', (r) => r.json('points.#') === 30],
];

/** @param {{ token: string }} data setup's answer */
export default function ({ token }) {
  for (const [path, valid] of paths) {
    const res = http.get(`${BASE}${path}`, bearer(token, `GET ${path}`));
    check(res, { [`${path.split('?')[0]}: 200`]: (r) => r.status === 200 && valid(r) });
  }
}

/** @param {import('k6/summary').SummaryData} data */
export const handleSummary = (data) => writeSummary(data);
