// Me and balance: what the web app asks on every page of a signed-in user, GET /api/auth/me and
// GET /api/tokens/balance (the gateway's hot path, ADR 0510). Setup signs up one user per VU (up to
// 50); each VU asks with its own user's token. See common.js for the profiles and env.
import http from 'k6/http';
import { check } from 'k6';
import { BASE, bearer, maxVUs, registerUsers, runId, scenarioOptions, timedSetup, writeSummary } from './common.js';

const shape = {
  vus: 50,
  latency: ['p(50)<50', 'p(99)<200'],
  smoke: { rate: 2 },
};
export const options = scenarioOptions(shape);

export const setup = timedSetup(() => {
  return { tokens: registerUsers(Math.min(maxVUs(shape), 50), runId(), 'load.me') };
});

/** @param {{ tokens: string[] }} data setup's answer */
export default function ({ tokens }) {
  // Setup registered one user per VU at most (maxVUs), so the modulo always lands on one.
  const token = /** @type {string} */ (tokens[(__VU - 1) % tokens.length]);
  const me = http.get(`${BASE}/api/auth/me`, bearer(token, 'GET /api/auth/me'));
  check(me, { 'me: 200': (r) => r.status === 200 && typeof r.json('id') === 'string' });
  const balance = http.get(`${BASE}/api/tokens/balance`, bearer(token, 'GET /api/tokens/balance'));
  check(balance, { 'balance: 200': (r) => r.status === 200 && r.json('balance') === 200 });
}

/** @param {import('k6/summary').SummaryData} data */
export const handleSummary = (data) => writeSummary(data);
