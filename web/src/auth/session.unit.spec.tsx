import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { ApiError } from '../api/http';
import type { UserProfile } from '../api/schema';
import { displayNameOf, initialiseSession, isProfileFresh, type SessionDeps } from './session';

const profile: UserProfile = {
  id: 'u1',
  email: 'ada@example.com',
  tokenBalance: 200,
  firstName: null,
  lastName: null,
  avatarUrl: null,
  name: 'ada',
  stripeCustomerId: null,
  stripeSubscriptionId: null,
  subscriptionPlan: 'none',
  subscriptionStatus: null,
  subscriptionPlanName: null,
  subscriptionPeriodEnd: null,
  isUnlimited: false,
  emailVerified: true,
  role: 'user',
  createdAt: null,
};

function deps(answers: (UserProfile | Error)[], token: string | null = 't', signal?: AbortSignal) {
  const waits: number[] = [];
  let removed = false;
  let calls = 0;
  const d: SessionDeps = {
    readToken: () => token,
    removeToken: () => {
      removed = true;
    },
    fetchProfile: async () => {
      const next = answers[calls++];
      if (!next || next instanceof Error) throw next ?? new Error('HTTP 500: Auth failed');
      return next;
    },
    sleep: async (ms) => {
      waits.push(ms);
    },
    signal,
  };
  return { d, waits, removed: () => removed, calls: () => calls };
}

describe('initialiseSession', () => {
  it('is signed out without a stored token, asking nothing', async () => {
    const t = deps([profile], null);
    assert.equal(await initialiseSession(t.d), null);
    assert.equal(t.calls(), 0);
  });
  it('retries up to 3 times, waiting 500 ms times the attempt', async () => {
    const t = deps([new Error('HTTP 500: Auth failed'), new Error('HTTP 502: Auth failed'), profile]);
    assert.deepEqual(await initialiseSession(t.d), profile);
    assert.deepEqual(t.waits, [500, 1000]);
  });
  it('clears the user after 3 failures and keeps the token', async () => {
    const t = deps([new Error('a'), new Error('b'), new Error('c'), profile]);
    assert.equal(await initialiseSession(t.d), null);
    assert.equal(t.calls(), 3);
    assert.equal(t.removed(), false);
  });
  it('stops asking once the page that asked has gone (its signal aborted)', async () => {
    const gone = new AbortController();
    const t = deps([new Error('HTTP 503: starting'), new Error('HTTP 503: starting'), profile], 't', gone.signal);
    const first = t.d.fetchProfile;
    t.d.fetchProfile = async (signal) => {
      // the provider unmounts while its first answer is on the way
      gone.abort();
      return first(signal);
    };
    assert.equal(await initialiseSession(t.d), null);
    assert.equal(t.calls(), 1, 'no second try after the abort');
    assert.deepEqual(t.waits, [], 'no wait either');
    const before = new AbortController();
    before.abort();
    const u = deps([profile], 't', before.signal);
    assert.equal(await initialiseSession(u.d), null);
    assert.equal(u.calls(), 0, 'nothing asked when already gone');
  });
  it('removes an expired or refused token and stops retrying', async () => {
    for (const error of [
      new ApiError(401, 'Invalid token'),
      new Error('Token expired'),
      new Error('Not authenticated'),
    ]) {
      const t = deps([error, profile]);
      assert.equal(await initialiseSession(t.d), null);
      assert.equal(t.calls(), 1);
      assert.equal(t.removed(), true);
    }
  });
});

describe('profile helpers', () => {
  it('treats a profile as fresh for 5 minutes', () => {
    assert.equal(isProfileFresh(null, 1000), false);
    assert.equal(isProfileFresh(0, 5 * 60_000 - 1), true);
    assert.equal(isProfileFresh(0, 5 * 60_000), false);
  });
  it('names the person by first and last name, first name, or e-mail local part', () => {
    assert.equal(displayNameOf({ ...profile, firstName: 'Ada', lastName: 'Lovelace' }), 'Ada Lovelace');
    assert.equal(displayNameOf({ ...profile, firstName: 'Ada' }), 'Ada');
    assert.equal(displayNameOf(profile), 'ada');
  });
});
