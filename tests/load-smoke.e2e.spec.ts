// The load suite's scenarios (tests/load/scenarios/, `npm run load`) in their smoke profile: each runs a
// few seconds at a few iterations a second against the product as `npm start` runs it, with its
// thresholds on errors only (no failed request, no failed check, every generation completed). Proves
// the scripts still speak the API; the figures are `npm run load`'s. k6 comes from the test
// infrastructure (scripts/infra.mjs builds it into .infra/bin).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { K6_BIN } from '../scripts/infra.mjs';
import { LOAD_RATE_LIMITS, runK6, SCENARIOS, startProduct } from './load/harness.mjs';

const admin = { ADMIN_EMAIL: 'smoke.admin@example.com', ADMIN_PASSWORD: 'load smoke admin password' };

// Ceilings against hangs on a loaded machine, not timings: a generation waits for the engine (its
// model is prepared on first use), and setup signs users up with argon2id.
describe('load suite smoke (k6, every scenario)', { timeout: 420_000 }, () => {
  let product: Awaited<ReturnType<typeof startProduct>> | undefined;

  beforeAll(async () => {
    assert.ok(existsSync(K6_BIN), `k6 is not at ${K6_BIN}: run \`node scripts/infra.mjs install\``);
    product = await startProduct({ env: { ...admin, ...LOAD_RATE_LIMITS, LOG_LEVEL: 'warn' } });
  }, 360_000);

  afterAll(async () => {
    await product?.stop();
  });

  for (const scenario of SCENARIOS)
    it(`${scenario.name} (${scenario.what}): k6 meets its error thresholds and made requests`, async () => {
      assert.ok(product, 'the product started');
      const run = await runK6(K6_BIN, scenario.script, {
        BASE: product.base,
        PROFILE: 'smoke',
        DURATION: '4s',
        ...admin,
      });
      const failed = Object.entries(run.summary?.thresholds ?? {})
        .filter(([, ok]) => !ok)
        .map(([t]) => t);
      assert.equal(
        run.code,
        0,
        `k6 exited ${run.code}; failed thresholds: ${failed.join('; ') || 'none'}\n${run.stderr}\n${product.output().slice(-3000)}`,
      );
      assert.ok(run.summary, 'k6 wrote its summary');
      assert.equal(run.summary.profile, 'smoke');
      assert.ok(run.summary.requests > 0, `requests: ${run.summary.requests}`);
      assert.ok(run.summary.iterations > 0, `iterations: ${run.summary.iterations}`);
      assert.equal(run.summary.errorRate, 0);
      if (scenario.name === 'generate-poll') {
        assert.ok(Number(run.summary.generations) > 0, 'generations were made');
        assert.equal(run.summary.generationsCompleted, run.summary.generations, 'every generation completed');
      }
    });
});
