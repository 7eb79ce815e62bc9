// Generate and poll: a signed-in user uploads a small photo (POST /api/images/generate, multipart,
// one of the engine's 0.2 MP test JPEGs) and polls GET /api/images/status/{id} once a second, as the
// dashboard does, until the job is completed or failed. The product's in-process generation worker
// runs the real engine, so generations queue behind it; a run's iterations are let finish. Setup
// signs up one user per VU (200 tokens: two unlocked images, then locked ones, made all the same).
// See common.js for the profiles and env; POLL_TIMEOUT_S (240) bounds one generation's wait.
import http from 'k6/http';
import { check, sleep } from 'k6';
import { Rate, Trend } from 'k6/metrics';
import { BASE, bearer, maxVUs, registerUsers, runId, scenarioOptions, timedSetup, writeSummary } from './common.js';

const POLL_TIMEOUT_S = Number(__ENV.POLL_TIMEOUT_S || 240);
const photos = ['top_floor_01.jpg', 'shoes_pair_02.jpg', 'headwear_01.jpg'].map((name) => ({
  name,
  bytes: open(`../../../services/image/test/fixtures/${name}`, 'b'),
}));

/** Whether a generation ended completed (not failed, not past POLL_TIMEOUT_S). */
const completed = new Rate('generation_completed');
/** Upload sent to completed or failed seen. */
const generationMs = new Trend('generation_ms', true);

const shape = {
  vus: 4,
  latency: ['p(50)<200', 'p(99)<2000'],
  thresholds: { generation_completed: ['rate==1'] },
  // Four users' jobs queue behind one engine job at a time (about 2.5 s each in a trial on 2 cores).
  loadThresholds: { generation_ms: ['p(99)<60000'] },
  smoke: { rate: 1, timeUnit: '2s', maxVUs: 3 },
  // Iterations under way when the run ends are let finish (each is bounded by POLL_TIMEOUT_S).
  gracefulStop: `${POLL_TIMEOUT_S + 30}s`,
};
export const options = scenarioOptions(shape);

export const setup = timedSetup(() => {
  return { tokens: registerUsers(maxVUs(shape), runId(), 'load.gen') };
});

/** @param {{ tokens: string[] }} data */
export default function ({ tokens }) {
  // Both lists are non-empty (setup registers maxVUs users), so the modulo always lands on one.
  const token = /** @type {string} */ (tokens[(__VU - 1) % tokens.length]);
  const photo = /** @type {(typeof photos)[number]} */ (photos[__ITER % photos.length]);
  const started = Date.now();
  const res = http.post(
    `${BASE}/api/images/generate`,
    { file: http.file(photo.bytes, photo.name, 'image/jpeg'), enhancement_type: 'clothing' },
    bearer(token, 'POST /api/images/generate'),
  );
  if (!check(res, { 'generate: 200 processing': (r) => r.status === 200 && r.json('status') === 'processing' })) {
    completed.add(false);
    return;
  }
  const id = res.json('id');
  let status = 'processing';
  while (status === 'processing' && Date.now() - started < POLL_TIMEOUT_S * 1000) {
    sleep(1);
    const poll = http.get(`${BASE}/api/images/status/${id}`, bearer(token, 'GET /api/images/status/{id}'));
    if (!check(poll, { 'status: 200': (r) => r.status === 200 })) break;
    status = String(poll.json('status'));
  }
  check(status, { 'generation: completed': (s) => s === 'completed' });
  completed.add(status === 'completed');
  if (status !== 'processing') generationMs.add(Date.now() - started);
}

/** @param {import('k6/summary').SummaryData} data */
export const handleSummary = (data) =>
  writeSummary(data, (v) => ({
    generations: (v('generation_completed')?.passes ?? 0) + (v('generation_completed')?.fails ?? 0),
    generationsCompleted: v('generation_completed')?.passes ?? 0,
    generationP50: v('generation_ms')?.['p(50)'],
    generationP99: v('generation_ms')?.['p(99)'],
  }));
