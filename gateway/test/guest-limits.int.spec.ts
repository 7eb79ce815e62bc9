// Limits of a guest's tries (POST /images/anonymous/generate, ADR 0105) through the gateway, on
// the real identity, ledger and image services (a fake engine the test can hold), with the
// counters on real Redis and on the in-memory fallback: per client IP per hour (an IPv6 /64 as
// one), per e-mail address per hour, and the tries still processing at once; each refusal is a
// 429 with Retry-After and the sign-up message, and stores nothing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createLogger } from '@flatlay/platform';
import { waitFor } from '../../services/platform/test/support.js';
import type { BlobStore } from '@flatlay/files';
import type { EnhanceEngine } from '../../services/image/src/app/generation-worker.js';
import { createGatewayApp, listen } from '../src/index.js';
import type { GuestTryLimitOptions } from '../src/http/guest-limits.js';
import { type ErrorBody, startStack, type Stack } from './support/stack.js';

const photo = await readFile(new URL('../../services/image/test/fixtures/top_floor_01.jpg', import.meta.url));
const SIGN_UP =
  /^You've reached the limit of free tries for now\. Sign up to get 200 free tokens, or try again in \d+ minutes?\.$/;

/** A fake engine that finishes at once, or, while held, only when let go. */
function holdableEngine() {
  let held: Promise<void> | undefined;
  let letGo = () => {};
  const engine: EnhanceEngine = {
    async enhance() {
      await held;
      const full = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ffffff' } })
        .jpeg()
        .toBuffer();
      return { full, preview: full, thumbnail: full, width: 40, height: 30, format: 'jpeg' } as never;
    },
    async close() {},
  };
  return {
    engine,
    hold() {
      held = new Promise((ok) => {
        letGo = ok;
      });
    },
    release() {
      held = undefined;
      letGo();
    },
  };
}

describe.each([
  ['real Redis', true],
  ['the in-memory fallback', false],
])("a guest's tries are limited, on %s", { timeout: 240_000 }, (_name, onRedis) => {
  const control = holdableEngine();
  let s: Stack;
  const stops: Array<() => Promise<void>> = [];
  /** Uploads the gateways began to store (a refusal before the file is read adds none). */
  let puts = 0;

  beforeAll(async () => {
    s = await startStack(`guest-limits-${onRedis ? 'redis' : 'memory'}`, undefined, {
      image: { engine: control.engine },
    });
  });
  afterAll(async () => {
    control.release();
    for (const stop of stops) await stop().catch(() => undefined);
    await s?.stop();
  });

  /** A gateway in front of the stack's services with these guest limits; requests come "from" an address. */
  const gateway = async (guestTries: GuestTryLimitOptions) => {
    const app = createGatewayApp({
      logger: createLogger('guest-limits-test', 'silent'),
      corsOrigins: [],
      services: s.services.map((x) => ({ name: x.name, address: `127.0.0.1:${x.port}` })),
      rateLimits: {
        perIp: 10_000,
        perEmail: 10_000,
        windowSeconds: 600,
        guestTries,
        keyPrefix: `guest-test-${randomUUID()}`,
        ...(onRedis ? { redis: s.redis } : {}),
      },
      files: { blobs: countingPuts(s.image!.blobs), urlKey: s.image!.urlKey },
    });
    const http = await listen(app, '127.0.0.1', 0);
    stops.push(() => http.stop());
    return async (email: string, from: string, order: 'email first' | 'file first' = 'email first') => {
      const form = new FormData();
      if (order === 'file first') form.append('file', new Blob([photo]), 'photo.jpg');
      form.append('email', email);
      form.append('enhancement_type', 'tops');
      if (order === 'email first') form.append('file', new Blob([photo]), 'photo.jpg');
      const res = await fetch(`http://127.0.0.1:${http.port}/api/images/anonymous/generate`, {
        method: 'POST',
        headers: { 'x-forwarded-for': from },
        body: form,
      });
      return {
        status: res.status,
        body: (await res.json()) as ErrorBody & { enhancement_id?: string },
        headers: res.headers,
      };
    };
  };
  const countingPuts = (blobs: BlobStore): BlobStore => ({
    get: (key) => blobs.get(key),
    head: (key) => blobs.head(key),
    delete: (key) => blobs.delete(key),
    deletePrefix: (prefix) => blobs.deletePrefix(prefix),
    put: (key, body, type) => {
      puts++;
      return blobs.put(key, body, type);
    },
  });
  const guest = () => `guest.${randomUUID().slice(0, 8)}@example.com`;
  const uploads = async () => (await readdir(join(s.image!.blobRoot, 'uploads')).catch(() => [] as string[])).length;
  const assertSignUpRefusal = (res: Awaited<ReturnType<Awaited<ReturnType<typeof gateway>>>>) => {
    assert.equal(res.status, 429, JSON.stringify(res.body));
    const retryAfter = Number(res.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 3_600, `Retry-After ${retryAfter}`);
    assert.match(res.body.message, SIGN_UP);
    assert.equal(res.body.detail, res.body.message);
    assert.equal(res.body.code, 'RATE_LIMITED');
  };
  const completed = (id: string) =>
    waitFor(
      async () =>
        (await s.image!.service.context.pool.query('SELECT status FROM images WHERE image_id = $1', [id])).rows[0]
          ?.status === 'completed',
      `try ${id} completes`,
    );

  it('the 11th try from one IP in an hour is 429 with Retry-After and the sign-up message, and stores nothing', async () => {
    const send = await gateway({ perIpPerHour: 10, perEmailPerHour: 1_000, unfinishedPerGuest: 1_000 });
    for (let i = 0; i < 10; i++) assert.equal((await send(guest(), '198.51.100.10')).status, 200, `try ${i + 1}`);
    const [before, stored] = [await uploads(), puts];
    const refused = await send(guest(), '198.51.100.10');
    assertSignUpRefusal(refused);
    assert.ok(Number(refused.headers.get('retry-after')) > 60, 'the hour is not over: minutes, not seconds');
    assert.equal(puts, stored, 'refused before a byte of the upload was stored');
    assert.equal(await uploads(), before);
    // Another client is not limited by it.
    assert.equal((await send(guest(), '198.51.100.11')).status, 200);
  });

  it('counts an IPv6 client by its /64', async () => {
    const send = await gateway({ perIpPerHour: 3, perEmailPerHour: 1_000, unfinishedPerGuest: 1_000 });
    for (const ip of ['2001:db8:5:6::1', '2001:db8:5:6:ffff::2', '2001:db8:5:6:1:2:3:4'])
      assert.equal((await send(guest(), ip)).status, 200, ip);
    assertSignUpRefusal(await send(guest(), '2001:db8:5:6::99'));
    assert.equal((await send(guest(), '2001:db8:5:7::1')).status, 200, 'the neighbouring /64 is another client');
  });

  it('limits one e-mail address from any client, before its upload is stored when the address comes first', async () => {
    const send = await gateway({ perIpPerHour: 1_000, perEmailPerHour: 2, unfinishedPerGuest: 1_000 });
    const email = guest();
    assert.equal((await send(email, '203.0.113.1')).status, 200);
    assert.equal((await send(email.toUpperCase(), '203.0.113.2')).status, 200, 'an address counts in any case');
    const [before, stored] = [await uploads(), puts];
    assertSignUpRefusal(await send(email, '203.0.113.3'));
    assert.equal(puts, stored, 'the address came first: refused before the upload was stored');
    // Sent after the file, the address is checked once the body is read: the stored upload goes again.
    assertSignUpRefusal(await send(email, '203.0.113.4', 'file first'));
    assert.equal(puts, stored + 1);
    assert.equal(await uploads(), before, 'no refused upload is left');
    assert.equal((await send(guest(), '203.0.113.3')).status, 200, 'another address from the same client is not');
  });

  it('a refused try gives back what it counted: an invalid upload does not use up a try', async () => {
    const send = await gateway({ perIpPerHour: 1, perEmailPerHour: 1_000, unfinishedPerGuest: 1_000 });
    // The invalid address is refused (400); the client's one try this hour is still there.
    const refused = await send('not an address', '198.51.100.40');
    assert.equal(refused.status, 400);
    assert.equal((await send(guest(), '198.51.100.40')).status, 200);
    assertSignUpRefusal(await send(guest(), '198.51.100.40'));
  });

  it("limits a guest's tries still processing at once, per e-mail address and per client", async () => {
    const send = await gateway({ perIpPerHour: 1_000, perEmailPerHour: 1_000, unfinishedPerGuest: 2 });
    control.hold();
    try {
      const email = guest();
      const first = await send(email, '198.51.100.50');
      const second = await send(email, '198.51.100.51');
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      // The same address from a third client: two of its tries are still processing.
      assertSignUpRefusal(await send(email, '198.51.100.52'));
      // The same client with other addresses: two tries processing from it too.
      const fromOne = await send(guest(), '198.51.100.60');
      const fromOneAgain = await send(guest(), '198.51.100.60');
      assert.equal(fromOne.status, 200);
      assert.equal(fromOneAgain.status, 200);
      assertSignUpRefusal(await send(guest(), '198.51.100.60'));
      control.release();
      for (const r of [first, second, fromOne, fromOneAgain]) await completed(r.body.enhancement_id!);
      assert.equal((await send(email, '198.51.100.52')).status, 200, 'once they are done, the guest may try again');
      assert.equal((await send(guest(), '198.51.100.60')).status, 200);
    } finally {
      control.release();
    }
  });
});
