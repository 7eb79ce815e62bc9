// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { afterEach, describe, it, vi } from 'vitest';
import {
  confirmGuestUnlock,
  forgetPaidTry,
  LOAD_FAILED,
  MAX_FAILURES,
  nextUnlockStep,
  paidResultLink,
  readPaidTry,
  rememberPaidTry,
  type UnlockAnswer,
  unlockRetryDelay,
} from './paid-unlock';
import { askGuestUnlock } from './unlock';

const ID = '0b9f6f0e-5d1c-4a6e-9a43-1a2b3c4d5e6f';
const pending: UnlockAnswer = { kind: 'pending', status: 'pending_payment' };

/** A scripted server and a clock that only records the waits asked for. */
function scripted(answers: UnlockAnswer[]) {
  const waits: number[] = [];
  const statuses: string[] = [];
  let calls = 0;
  return {
    waits,
    statuses,
    calls: () => calls,
    deps: {
      unlock: async () => answers[Math.min(calls++, answers.length - 1)]!,
      sleep: async (ms: number) => void waits.push(ms),
      onPending: (s: string) => void statuses.push(s),
    },
  };
}

describe("the back-off while a guest's payment is confirmed", () => {
  it('waits 1 s, doubling, at most 15 s', () => {
    assert.deepEqual([0, 1, 2, 3, 4, 5, 20].map(unlockRetryDelay), [1000, 2000, 4000, 8000, 15000, 15000, 15000]);
  });

  it('keeps waiting for as long as the payment is pending, and is done when it is unlocked', () => {
    assert.deepEqual(nextUnlockStep(pending, 9, 0), { kind: 'wait', ms: 15000 });
    assert.deepEqual(nextUnlockStep({ kind: 'unlocked', url: '/r.png' }, 3, 0), { kind: 'done', url: '/r.png' });
  });

  it('stops at a refusal (forgetting the id), and after failures in a row (keeping it)', () => {
    assert.deepEqual(nextUnlockStep({ kind: 'refused', message: 'Image not found' }, 0, 0), {
      kind: 'stop',
      message: 'Image not found',
      forget: true,
    });
    assert.deepEqual(nextUnlockStep({ kind: 'failed' }, 2, MAX_FAILURES - 1), { kind: 'wait', ms: 4000 });
    assert.deepEqual(nextUnlockStep({ kind: 'failed' }, 4, MAX_FAILURES), {
      kind: 'stop',
      message: LOAD_FAILED,
      forget: false,
    });
  });
});

describe("confirming a guest's paid try", () => {
  it('asks again with back-off while the confirmation is on its way, then shows the result', async () => {
    const server = scripted([
      pending,
      pending,
      { kind: 'pending', status: 'unlocking' },
      { kind: 'unlocked', url: '/full.png' },
    ]);
    assert.deepEqual(await confirmGuestUnlock(ID, server.deps), { kind: 'unlocked', url: '/full.png' });
    assert.equal(server.calls(), 4);
    assert.deepEqual(server.waits, [1000, 2000, 4000]);
    assert.deepEqual(server.statuses, ['pending_payment', 'pending_payment', 'unlocking']);
  });

  it('a failure between pending answers does not end the wait; five in a row do', async () => {
    const flaky = scripted([pending, { kind: 'failed' }, pending, { kind: 'unlocked', url: '/u' }]);
    assert.deepEqual(await confirmGuestUnlock(ID, flaky.deps), { kind: 'unlocked', url: '/u' });
    const down = scripted([{ kind: 'failed' }]);
    assert.deepEqual(await confirmGuestUnlock(ID, down.deps), { kind: 'stopped', message: LOAD_FAILED, forget: false });
    assert.equal(down.calls(), MAX_FAILURES);
  });

  it('stops when the page is left', async () => {
    const stop = new AbortController();
    const server = scripted([pending]);
    const outcome = await confirmGuestUnlock(ID, {
      ...server.deps,
      sleep: async () => stop.abort(),
      signal: stop.signal,
    });
    assert.deepEqual([outcome, server.calls()], [{ kind: 'aborted' }, 1]);
  });
});

describe('what the unlock call answered, read for the loop', () => {
  afterEach(() => vi.unstubAllGlobals());
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('202 is pending (with its status), 200 unlocked, 404 and 409 refusals', async () => {
    const answers = [
      json(202, { success: false, status: 'unlocking', processed_url: null }),
      json(200, { success: true, processed_url: '/files/full.png' }),
      json(409, { message: 'No payment was started for this enhancement.', code: 'CONFLICT' }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answers.shift()),
    );
    assert.deepEqual(await askGuestUnlock(ID), { kind: 'pending', status: 'unlocking' });
    assert.deepEqual(await askGuestUnlock(ID), { kind: 'unlocked', url: '/files/full.png' });
    assert.deepEqual(await askGuestUnlock(ID), {
      kind: 'refused',
      message: 'No payment was started for this enhancement.',
    });
  });

  it('a failed call reads the enhancement instead (it may be unlocked already)', async () => {
    const answers = [json(500, { message: 'boom' }), json(200, { is_paid: true, processed_url: '/files/f.png' })];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answers.shift()),
    );
    assert.deepEqual(await askGuestUnlock(ID), { kind: 'unlocked', url: '/files/f.png' });
  });
});

describe("the paid try's id and link", () => {
  it('is kept in session storage until forgotten, and the link is the payment’s return address', () => {
    rememberPaidTry(ID);
    assert.equal(readPaidTry(), ID);
    assert.equal(sessionStorage.getItem('flatlay-paid-guest-try'), ID);
    forgetPaidTry();
    assert.equal(readPaidTry(), null);
    assert.equal(
      paidResultLink('https://flatlay.example', ID),
      `https://flatlay.example/?payment=success&enhancement_id=${ID}`,
    );
  });
});
