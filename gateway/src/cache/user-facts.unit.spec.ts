import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { UserFactsCache } from './user-facts.js';

function cache(ttlMs = 30_000) {
  let now = 1_000_000;
  const c = new UserFactsCache({ ttlMs, now: () => now, maxUsers: 3, maxSessionsPerUser: 2 });
  c.setLive(true);
  return { c, advance: (ms: number) => (now += ms), now: () => now };
}

describe('UserFactsCache', () => {
  it('keeps nothing until live, and forgets everything when no longer live', () => {
    const c = new UserFactsCache({ ttlMs: 30_000 });
    c.rememberBalance(c.stamp(), 'u1', { balance: 5 });
    assert.equal(c.balance('u1'), undefined);
    c.setLive(true);
    c.rememberBalance(c.stamp(), 'u1', { balance: 5 });
    assert.deepEqual(c.balance('u1'), { balance: 5 });
    c.setLive(false);
    assert.equal(c.balance('u1'), undefined);
  });

  it('keeps nothing with a TTL of 0 (the cache turned off)', () => {
    const c = new UserFactsCache({ ttlMs: 0 });
    c.setLive(true);
    assert.equal(c.isLive, false);
    c.rememberSession(c.stamp(), 't', 'u1', { userId: 'u1' });
    assert.equal(c.session('t'), undefined);
  });

  it('never stores an answer that started before an invalidation of its user', () => {
    const { c } = cache();
    const before = c.stamp();
    c.invalidate('u1');
    c.rememberSession(before, 'token-1', 'u1', { userId: 'u1' });
    c.rememberProfile(before, 'u1', { user: {} });
    c.rememberBalance(before, 'u1', { balance: 1 });
    assert.equal(c.session('token-1'), undefined);
    assert.equal(c.profile('u1'), undefined);
    assert.equal(c.balance('u1'), undefined);
    // Another user's answer of the same moment is fine.
    c.rememberBalance(before, 'u2', { balance: 2 });
    assert.deepEqual(c.balance('u2'), { balance: 2 });
    // An answer that started after it is stored.
    c.rememberBalance(c.stamp(), 'u1', { balance: 3 });
    assert.deepEqual(c.balance('u1'), { balance: 3 });
  });

  it('a balance invalidation leaves sessions and profile, an identity one drops everything', () => {
    const { c } = cache();
    const s = c.stamp();
    c.rememberSession(s, 'token-1', 'u1', { userId: 'u1' });
    c.rememberProfile(s, 'u1', { user: { id: 'u1' } });
    c.rememberBalance(s, 'u1', { balance: 7 });
    const beforeSpend = c.stamp();
    c.invalidate('u1', 'balance');
    assert.equal(c.balance('u1'), undefined);
    assert.ok(c.session('token-1'));
    assert.ok(c.profile('u1'));
    // A session verified before a balance change is still fine to store; a balance is not.
    c.rememberSession(beforeSpend, 'token-2', 'u1', { userId: 'u1' });
    assert.ok(c.session('token-2'));
    c.rememberBalance(beforeSpend, 'u1', { balance: 7 });
    assert.equal(c.balance('u1'), undefined);
    c.invalidate('u1');
    assert.equal(c.session('token-1'), undefined);
    assert.equal(c.session('token-2'), undefined);
    assert.equal(c.profile('u1'), undefined);
  });

  it('forgets everyone at once, and answers from before that are not stored', () => {
    const { c } = cache();
    const s = c.stamp();
    c.rememberSession(s, 'a', 'u1', {});
    c.invalidateEveryone();
    assert.equal(c.session('a'), undefined);
    c.rememberSession(s, 'b', 'u2', {});
    assert.equal(c.session('b'), undefined);
  });

  it('keeps a fact no longer than the TTL, a token no longer than its expiry, a profile no longer than its period end', () => {
    const { c, advance, now } = cache(1_000);
    c.rememberSession(c.stamp(), 'long', 'u1', {}, now() + 60_000);
    c.rememberSession(c.stamp(), 'short', 'u1', {}, now() + 100);
    c.rememberSession(c.stamp(), 'expired', 'u2', {}, now() - 1);
    c.rememberProfile(c.stamp(), 'u3', { user: {} }, now() + 200);
    assert.ok(c.session('short'));
    assert.equal(c.session('expired'), undefined);
    advance(150);
    assert.equal(c.session('short'), undefined);
    assert.ok(c.session('long'));
    assert.ok(c.profile('u3'));
    advance(100);
    assert.equal(c.profile('u3'), undefined);
    advance(800);
    assert.equal(c.session('long'), undefined);
  });

  it('bounds what it keeps: users, then sessions per user', () => {
    const { c } = cache();
    for (const u of ['u1', 'u2', 'u3', 'u4']) c.rememberBalance(c.stamp(), u, { balance: 1 });
    assert.equal(c.balance('u1'), undefined);
    assert.ok(c.balance('u4'));
    for (const t of ['t1', 't2', 't3']) c.rememberSession(c.stamp(), t, 'u4', {});
    assert.equal(c.session('t1'), undefined);
    assert.ok(c.session('t2'));
    assert.ok(c.session('t3'));
  });

  it('is due for refreshing in the last quarter of its TTL; a fact that ends before its TTL never is', () => {
    const { c, advance, now } = cache(1_000);
    c.rememberBalance(c.stamp(), 'u1', { balance: 1 });
    c.rememberSession(c.stamp(), 'long', 'u1', {}, now() + 60_000);
    c.rememberSession(c.stamp(), 'short', 'u1', {}, now() + 900);
    c.rememberProfile(c.stamp(), 'u1', { user: {} }, now() + 900);
    advance(700);
    assert.equal(c.knownBalance('u1')?.refreshDue, false);
    advance(100);
    assert.equal(c.knownBalance('u1')?.refreshDue, true);
    assert.equal(c.knownSession('long')?.refreshDue, true);
    assert.equal(c.knownSession('short')?.refreshDue, false);
    assert.equal(c.knownProfile('u1')?.refreshDue, false);
    c.forgetSession('long');
    assert.equal(c.session('long'), undefined);
    assert.ok(c.session('short'));
  });
});
