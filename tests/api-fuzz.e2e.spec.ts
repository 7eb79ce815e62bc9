// Schemathesis against the running product (tests/fuzz/run.ts): every check, every operation, as a
// signed-in user and as the administrator, with a fixed seed and few examples per operation
// (`npm run fuzz` runs 200). Fails on any failure Schemathesis reports, on an operation that
// never answered 2xx to a role allowed to call it, on an admin-only operation that did not refuse
// the user with 403, and when the main tokens no longer work after.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { problemsOf, ROLES, runFuzz } from './fuzz/run.js';

// On a loaded machine a run takes longer than ten minutes: the timeout is raised, not the work cut.
describe('API fuzzing (Schemathesis)', { timeout: 1_500_000 }, () => {
  let reportDir: string | undefined;
  let passed = false;
  // The report (JUnit, NDJSON events, each role's output) is kept when the run fails, to read.
  afterAll(async () => {
    if (!reportDir) return;
    if (passed) await rm(reportDir, { recursive: true, force: true });
    else console.error(`Schemathesis report kept in ${reportDir}`);
  });

  it('finds no failure as user or admin, every operation answers 2xx to each role it admits (403 to the user on admin-only ones), and the main tokens still work', async () => {
    reportDir = await mkdtemp(join(tmpdir(), 'flatlay-fuzz-report-'));
    const result = await runFuzz({ examples: 10, reportDir });
    assert.deepEqual(problemsOf(result), []);
    for (const role of ROLES) {
      assert.equal(result.roles[role].operations, result.documented.length, role);
      assert.ok(result.roles[role].cases > 0, role);
    }
    assert.deepEqual(result.tokensAfter, { user: 200, admin: 200 });
    passed = true;
  });
});
