import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  ATTEMPTS_EXHAUSTED,
  decide,
  evolve,
  exponentialBackoff,
  newChargingJob,
  newJob,
  type JobCommand,
  type JobPolicy,
  type JobState,
} from './generation-job.js';

const t0 = new Date('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const policy: JobPolicy = { maxAttempts: 3, leaseMs: 60_000, backoffMs: exponentialBackoff(1_000) };

/** Runs commands in order, each by its own worker, and returns the decisions and the final state. */
function run(commands: JobCommand[], state: JobState = newJob(t0)) {
  const decisions = [];
  for (const c of commands) {
    const d = decide(c, state, policy);
    decisions.push(d);
    state = evolve(state, d, 'worker' in c ? c.worker : '');
  }
  return { decisions, state };
}

const claim = (worker: string, ms: number): JobCommand => ({ type: 'Claim', worker, at: at(ms) });
const fail = (worker: string, attempt: number, ms: number, retryable = true): JobCommand => ({
  type: 'AttemptFailed',
  worker,
  attempt,
  at: at(ms),
  retryable,
  code: 'MODEL_UNAVAILABLE',
  message: 'the GPU went away',
});

describe('generation job', () => {
  it('is claimed by one worker under a lease and completed by it', () => {
    const { decisions, state } = run([
      claim('a', 0),
      claim('b', 10),
      { type: 'Complete', worker: 'a', attempt: 1, at: at(20) },
    ]);
    assert.deepEqual(decisions[0], { type: 'Claimed', attempt: 1, leaseExpiresAt: at(60_000) });
    assert.deepEqual(decisions[1], { type: 'NotClaimable', reason: 'leased' });
    assert.deepEqual(decisions[2], { type: 'Completed' });
    assert.equal(state.status, 'succeeded');
    assert.deepEqual(decide(claim('c', 30), state, policy), { type: 'NotClaimable', reason: 'finished' });
  });

  it('goes to another worker once the first one’s lease has expired, and drops the first one’s late result', () => {
    const { decisions, state } = run([
      claim('dead', 0),
      claim('b', 60_001),
      { type: 'Complete', worker: 'dead', attempt: 1, at: at(60_002) },
      { type: 'Complete', worker: 'b', attempt: 2, at: at(60_003) },
    ]);
    assert.deepEqual(decisions[1], { type: 'Claimed', attempt: 2, leaseExpiresAt: at(120_001) });
    assert.deepEqual(decisions[2], { type: 'Superseded' });
    assert.deepEqual(decisions[3], { type: 'Completed' });
    assert.equal(state.attempts, 2);
  });

  it('keeps its lease while the worker renews it', () => {
    const { decisions } = run([
      claim('a', 0),
      { type: 'Renew', worker: 'a', attempt: 1, at: at(50_000) },
      claim('b', 70_000),
    ]);
    assert.deepEqual(decisions[1], { type: 'LeaseRenewed', leaseExpiresAt: at(110_000) });
    assert.deepEqual(decisions[2], { type: 'NotClaimable', reason: 'leased' });
  });

  it('retries after a growing pause and fails for good after the allowed attempts', () => {
    const { decisions, state } = run([
      claim('a', 0),
      fail('a', 1, 100),
      claim('a', 500),
      claim('a', 1_100),
      fail('a', 2, 1_200),
      claim('b', 3_200),
      fail('b', 3, 3_300),
    ]);
    assert.deepEqual(decisions[1], {
      type: 'RetryScheduled',
      notBefore: at(1_100),
      code: 'MODEL_UNAVAILABLE',
      message: 'the GPU went away',
    });
    assert.deepEqual(decisions[2], { type: 'NotClaimable', reason: 'not_due' });
    assert.equal(decisions[3]?.type, 'Claimed');
    assert.deepEqual((decisions[4] as { notBefore: Date }).notBefore, at(3_200), 'twice the first pause');
    assert.equal(decisions[6]?.type, 'Failed');
    assert.equal((decisions[6] as { code: string }).code, ATTEMPTS_EXHAUSTED);
    assert.equal(state.status, 'failed');
  });

  it('fails at once when running it again cannot help', () => {
    const { decisions } = run([claim('a', 0), fail('a', 1, 10, false)]);
    assert.deepEqual(decisions[1], { type: 'Failed', code: 'MODEL_UNAVAILABLE', message: 'the GPU went away' });
  });

  it('fails a job whose workers died on every allowed attempt', () => {
    const { decisions, state } = run([claim('w1', 0), claim('w2', 60_000), claim('w3', 120_000), claim('w4', 180_000)]);
    assert.deepEqual(
      decisions.map((d) => d.type),
      ['Claimed', 'Claimed', 'Claimed', 'Failed'],
    );
    assert.equal(state.status, 'failed');
  });

  it('is not claimed while its charge is unsettled, then runs once settled', () => {
    const { decisions, state } = run(
      [claim('w1', 0), { type: 'ChargeSettled', at: at(5) }, claim('w1', 10)],
      newChargingJob(t0),
    );
    assert.deepEqual(
      decisions.map((d) => d.type),
      ['NotClaimable', 'Queued', 'Claimed'],
    );
    assert.deepEqual(decisions[0], { type: 'NotClaimable', reason: 'charging' });
    assert.equal(state.status, 'running');
  });

  it('is settled once: a second settler (the request and the sweeper racing) changes nothing', () => {
    const { decisions } = run(
      [
        { type: 'ChargeSettled', at: at(1) },
        { type: 'ChargeSettled', at: at(2) },
        { type: 'ChargeRefused', at: at(3), code: 'CHARGE_REFUSED', message: 'closed' },
      ],
      newChargingJob(t0),
    );
    assert.deepEqual(
      decisions.map((d) => d.type),
      ['Queued', 'Superseded', 'Superseded'],
    );
  });

  it('fails without running when the ledger refuses its charge for good', () => {
    const { decisions, state } = run(
      [{ type: 'ChargeRefused', at: at(1), code: 'CHARGE_REFUSED', message: 'This token account is closed' }],
      newChargingJob(t0),
    );
    assert.deepEqual(decisions[0], { type: 'Failed', code: 'CHARGE_REFUSED', message: 'This token account is closed' });
    assert.equal(state.status, 'failed');
  });
});
