// Schemathesis against the running product (tests/fuzz/run.ts): every check, every operation, as a
// signed-in user and as the administrator, with a fixed seed and few examples per operation
// (`npm run fuzz` runs 200, every phase for both roles). Fails on any failure Schemathesis
// reports, on an operation that never answered 2xx to a role allowed to call it, on an admin-only operation that did not refuse
// the user with 403, and when the main tokens no longer work after.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { problemsOf, ROLES, runFuzz } from './fuzz/run.js';

// A ceiling against hangs only: on a loaded machine a run can take many minutes.
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
    // The coverage phase (every keyword's boundary and invalid values) runs once, as the admin,
    // who reaches every operation: the validation it probes is the same code for both roles, and
    // as the user it would spend a minute mostly on admin-only operations' 403s. The user's run
    // (its examples, 5 fuzzed cases per operation, and the stateful links) checks what differs by
    // role: 2xx where the user may call, 403 where not.
    const result = await runFuzz({ examples: 5, reportDir, phases: { user: 'examples,fuzzing,stateful' } });
    assert.deepEqual(problemsOf(result), []);
    for (const role of ROLES) {
      assert.equal(result.roles[role].operations, result.documented.length, role);
      assert.ok(result.roles[role].cases > 0, role);
    }
    assert.deepEqual(result.tokensAfter, { user: 200, admin: 200 });
    passed = true;
  });
});
