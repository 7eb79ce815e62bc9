import assert from 'node:assert/strict';
import { Metadata } from '@grpc/grpc-js';
import { describe, it } from 'vitest';
import { AppError, call } from '@flatlay/platform';
import type { ServiceClients } from '../clients.js';
import { cachedClients } from './cached-clients.js';
import type { Scope } from './user-facts.js';
import { UserFactsCache } from './user-facts.js';

type Cb = (error: unknown, response?: unknown) => void;

/** A stand-in service client: counts calls per method and answers what `answers` says. */
function fakeClient(answers: Record<string, (request: Record<string, unknown>) => unknown>) {
  const calls: string[] = [];
  const client: Record<string, unknown> = { close: () => undefined };
  for (const [name, answer] of Object.entries(answers))
    client[name] = (request: Record<string, unknown>, _m: Metadata, _o: unknown, cb: Cb) => {
      calls.push(name);
      setImmediate(() => {
        let response: unknown;
        try {
          response = answer(request);
        } catch (error) {
          return cb(error);
        }
        cb(null, response);
      });
    };
  return { client, calls };
}

const invoke = (client: object, method: string, request: object, metadata = new Metadata()) =>
  new Promise((ok, fail) =>
    (client as Record<string, (...a: unknown[]) => void>)[method]!.call(
      client,
      request,
      metadata,
      {},
      (e: unknown, r: unknown) => (e ? fail(e) : ok(r)),
    ),
  );

function setup(now?: () => number) {
  const facts = new UserFactsCache({ ttlMs: 60_000, now });
  facts.setLive(true);
  let refused = false;
  const identity = fakeClient({
    verifyToken: () => {
      if (refused) throw new AppError('UNAUTHENTICATED', 'Token revoked');
      return { userId: 'u1', role: 'user', tokenId: 'j1', expiresAt: new Date(Date.now() + 3_600_000) };
    },
    getProfile: (r) => ({ user: { id: r.userId } }),
    revokeToken: () => ({ revoked: true }),
    renameAccount: () => ({}),
    deleteUser: () => ({}),
  });
  const ledger = fakeClient({ getBalance: () => ({ balance: 5 }), adjust: () => ({ balance: 6, applied: 1 }) });
  const image = fakeClient({ getImage: () => ({}), createGeneration: () => ({ id: 'i1' }) });
  const sent: Array<[string[] | 'everyone', Scope]> = [];
  const clients = cachedClients(
    {
      identity: () => identity.client,
      ledger: () => ledger.client,
      image: () => image.client,
      analytics: () => ({}),
      close: () => undefined,
    } as unknown as ServiceClients,
    facts,
    async (users, scope) => {
      sent.push([users, scope]);
    },
  );
  const refuseTokens = () => {
    refused = true;
  };
  return { facts, clients, identity, ledger, image, sent, refuseTokens };
}

const token = `x.${Buffer.from(JSON.stringify({ sub: 'u1' })).toString('base64url')}.y`;

describe('cachedClients', () => {
  it('answers a repeated verification, profile and balance from the cache', async () => {
    const { clients, identity, ledger } = setup();
    for (let i = 0; i < 3; i++) {
      await invoke(clients.identity(), 'verifyToken', { token });
      await invoke(clients.identity(), 'getProfile', { userId: 'u1' });
      await invoke(clients.ledger(), 'getBalance', { userId: 'u1' });
    }
    assert.deepEqual(identity.calls, ['verifyToken', 'getProfile']);
    assert.deepEqual(ledger.calls, ['getBalance']);
  });

  it("a logout drops the token's user here and tells the others, before it answers", async () => {
    const { clients, identity, facts, sent } = setup();
    await invoke(clients.identity(), 'verifyToken', { token });
    await invoke(clients.identity(), 'revokeToken', { token });
    assert.deepEqual(sent, [[['u1'], 'all']]);
    assert.equal(facts.session(token), undefined);
    await invoke(clients.identity(), 'verifyToken', { token });
    assert.deepEqual(identity.calls, ['verifyToken', 'revokeToken', 'verifyToken']);
  });

  it('an identity write named in the effects table (a deletion) drops the user everywhere; a method it does not name drops nothing', async () => {
    const { clients, facts, sent } = setup();
    await invoke(clients.identity(), 'verifyToken', { token });
    await invoke(clients.identity(), 'renameAccount', { userId: 'u1' }); // not an RPC of identity's
    assert.ok(facts.session(token), 'a method outside the table is not guessed at from its name');
    assert.deepEqual(sent, []);
    await invoke(clients.identity(), 'deleteUser', { userId: 'u1' });
    assert.equal(facts.session(token), undefined);
    assert.deepEqual(sent, [[['u1'], 'all']]);
  });

  it("a ledger write, or another service's write for the caller, drops that user's balance only", async () => {
    const { clients, ledger, facts, sent } = setup();
    await invoke(clients.identity(), 'verifyToken', { token });
    await invoke(clients.ledger(), 'getBalance', { userId: 'u1' });
    await invoke(clients.ledger(), 'adjust', { userId: 'u1' });
    assert.equal(facts.balance('u1'), undefined);
    assert.ok(facts.session(token));
    await invoke(clients.ledger(), 'getBalance', { userId: 'u1' });
    const metadata = new Metadata();
    metadata.set('x-flatlay-user-id', 'u1');
    await invoke(clients.image(), 'getImage', { id: 'i1' }, metadata);
    assert.ok(facts.balance('u1'), 'a read changes nothing');
    await invoke(clients.image(), 'createGeneration', {}, metadata);
    assert.equal(facts.balance('u1'), undefined);
    assert.deepEqual(ledger.calls, ['getBalance', 'adjust', 'getBalance']);
    assert.deepEqual(sent, [
      [['u1'], 'balance'],
      [['u1'], 'balance'],
    ]);
  });

  it('asks the service every time while the cache is not live', async () => {
    const { clients, ledger, facts } = setup();
    facts.setLive(false);
    await invoke(clients.ledger(), 'getBalance', { userId: 'u1' });
    await invoke(clients.ledger(), 'getBalance', { userId: 'u1' });
    assert.deepEqual(ledger.calls, ['getBalance', 'getBalance']);
  });

  it('requests that miss at once share one call', async () => {
    const { clients, ledger } = setup();
    const answers = await Promise.all([1, 2, 3].map(() => invoke(clients.ledger(), 'getBalance', { userId: 'u1' })));
    assert.deepEqual(answers, [{ balance: 5 }, { balance: 5 }, { balance: 5 }]);
    assert.deepEqual(ledger.calls, ['getBalance']);
  });

  it('a miss after an invalidation does not join a call that started before it', async () => {
    const { clients, ledger, facts } = setup();
    const first = invoke(clients.ledger(), 'getBalance', { userId: 'u1' });
    facts.invalidate('u1', 'balance');
    const second = invoke(clients.ledger(), 'getBalance', { userId: 'u1' });
    await Promise.all([first, second]);
    assert.deepEqual(ledger.calls, ['getBalance', 'getBalance']);
  });

  it('in the last quarter of its TTL a fact is answered at once and refreshed once in the background', async () => {
    let now = 1_000_000;
    const { clients, ledger, facts } = setup(() => now);
    await invoke(clients.ledger(), 'getBalance', { userId: 'u1' });
    now += 50_000; // of 60 s
    assert.equal(facts.knownBalance('u1')?.refreshDue, true);
    const answers = await Promise.all([1, 2].map(() => invoke(clients.ledger(), 'getBalance', { userId: 'u1' })));
    assert.deepEqual(answers, [{ balance: 5 }, { balance: 5 }]);
    assert.deepEqual(ledger.calls, ['getBalance', 'getBalance'], 'one refresh for both');
    await new Promise((ok) => setImmediate(ok)); // the refresh's answer (the fake answers on setImmediate)
    assert.equal(facts.knownBalance('u1')?.refreshDue, false, 'renewed for a whole TTL');
  });

  it("a background refresh that identity refuses forgets the token at once (not at the TTL's end)", async () => {
    let now = 1_000_000;
    const { clients, identity, facts, refuseTokens } = setup(() => now);
    await invoke(clients.identity(), 'verifyToken', { token });
    now += 50_000;
    refuseTokens();
    assert.ok(await invoke(clients.identity(), 'verifyToken', { token }), 'answered from the cache meanwhile');
    await new Promise((ok) => setImmediate(ok));
    assert.equal(facts.session(token), undefined);
    await assert.rejects(invoke(clients.identity(), 'verifyToken', { token }), /revoked/);
    assert.deepEqual(identity.calls, ['verifyToken', 'verifyToken', 'verifyToken']);
  });

  it('call() takes a remembered answer without calling the service or building metadata', async () => {
    const { clients, ledger } = setup();
    const l = clients.ledger() as unknown as import('@grpc/grpc-js').Client & {
      getBalance: Parameters<typeof call>[1];
    };
    assert.deepEqual(await call(l, l.getBalance, { userId: 'u1' }), { balance: 5 });
    assert.deepEqual(await call(l, l.getBalance, { userId: 'u1' }), { balance: 5 });
    assert.deepEqual(ledger.calls, ['getBalance']);
  });
});
