// Sign-up and sign-in: a new user registers (201, 200 free tokens) and then signs in with the same
// address and password (200). Every attempt comes from one address: the runner raises the
// AUTH_RATE_LIMIT_* limits of the product it starts. Both hash or check a password (argon2id), so
// this is the product's most CPU-bound API path by design. See common.js for the profiles and env.
import http from 'k6/http';
import { check } from 'k6';
import { BASE, PASSWORD, runId, scenarioOptions, timedSetup, uniqueEmail, writeSummary } from './common.js';

export const options = scenarioOptions({
  vus: 10,
  latency: ['p(50)<1000', 'p(99)<2000'],
  smoke: { rate: 1 },
});

export const setup = timedSetup(() => ({ run: runId() }));

/** @param {string} name */
const jsonPost = (name) => ({ headers: { 'content-type': 'application/json' }, tags: { name } });

/** @param {{ run: string }} data setup's answer */
export default function ({ run }) {
  const email = uniqueEmail(run, 'load.signup');
  const body = JSON.stringify({ email, password: PASSWORD });
  const reg = http.post(`${BASE}/api/auth/register`, body, jsonPost('POST /api/auth/register'));
  check(reg, {
    'register: 201 with 200 tokens': (r) => r.status === 201 && r.json('user.tokenBalance') === 200,
  });
  if (reg.status !== 201) return;
  const login = http.post(`${BASE}/api/auth/login`, body, jsonPost('POST /api/auth/login'));
  check(login, { 'login: 200 with a token': (r) => r.status === 200 && typeof r.json('access_token') === 'string' });
}

/** @param {import('k6/summary').SummaryData} data */
export const handleSummary = (data) => writeSummary(data);
