// The product killed with SIGKILL in the middle of generations, failures and unlocks, and started
// again on the same data (ADR 0104). The product is apps/embedded/dist/embedded.js, as `npm start` runs
// it, on a fresh database of the test Postgres (the same code path as its embedded one) and a data
// folder of its own for files. Afterwards, for every user: nothing stays processing, the history
// sums to the balance, and the tokens spent net on images are 100 per completed, unlocked image
// (a failed image's charge came back; a locked one cost nothing; no unlock was taken without the
// image being unlocked).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, describe, it } from 'vitest';
import { waitFor } from '../services/platform/test/support.js';
import { restartableProduct } from './support/embedded-product.js';

// A phone photo scaled down: the engine's time is not what this test is about.
const photo = await sharp(await readFile(new URL('../services/image/test/fixtures/top_floor_01.jpg', import.meta.url)))
  .resize(480)
  .jpeg()
  .toBuffer();
/** A JPEG's first bytes and then noise: accepted as a JPEG upload, refused by the engine (the job fails). */
const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4_000, 0x5a)]);
const USERS = 4;
const SIGN_UP_GRANT = 200;

interface ImageJson {
  id: string;
  status: string;
  is_locked: boolean;
}
interface TransactionsJson {
  balance: number;
  transactions: Array<{ amount: number; description: string }>;
}

describe('a crash in the middle of charges', { timeout: 420_000 }, () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
  });

  it('loses no tokens: every charge ends in an image, a refund or an unlock', async () => {
    const { base, start: startWith } = await restartableProduct('crash', cleanup);
    const start = () =>
      startWith({
        // A dead process's jobs and charges are taken over within seconds, not minutes.
        GENERATION_LEASE_SECONDS: '4',
        GENERATION_SWEEP_INTERVAL_MS: '500',
        GENERATION_SWEEP_GRACE_MS: '2000',
        GENERATION_RETRY_BASE_MS: '200',
        GENERATION_CONCURRENCY: '2',
      });
    const api = async <T>(method: string, path: string, token: string, body?: FormData) => {
      const res = await fetch(`${base}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID() },
        body,
      });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as T };
    };
    const upload = (bytes: Buffer) => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), 'photo.jpg');
      form.append('enhancement_type', 'tops');
      return form;
    };

    const first = await start();
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const res = await fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: `crash-${i}-${randomUUID().slice(0, 6)}@example.com`,
          password: 'crash test pw',
        }),
      });
      assert.equal(res.status, 201);
      tokens.push(((await res.json()) as { access_token: string }).access_token);
    }

    // Traffic that the crash cuts through: each user generates twice (once with a photo the engine
    // refuses, so that job fails and owes its refund), a third time (charged or locked, depending
    // on whether the refund came first), and keeps unlocking whatever is finished and locked.
    let crashed = false;
    const traffic = tokens.map(async (token) => {
      const sent = [upload(photo), upload(broken), upload(photo)].map((form) =>
        api('POST', '/images/generate', token, form).catch(() => undefined),
      );
      await Promise.all(sent);
      while (!crashed) {
        const page = await api<{ images: ImageJson[] }>('GET', '/images/?limit=50', token).catch(() => undefined);
        for (const img of page?.body.images ?? [])
          if (img.status === 'completed' && img.is_locked)
            await api('POST', `/images/unlock-with-tokens/${img.id}`, token).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    // Let the charges, the first jobs and the first unlocks get under way, then pull the plug.
    await waitFor(
      async () => {
        const pages = await Promise.all(tokens.map((t) => api<{ images: ImageJson[] }>('GET', '/images/', t)));
        return pages.some((p) => p.body.images.some((img) => img.status !== 'processing'));
      },
      'the first results',
      60_000,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    crashed = true;
    await Promise.all(traffic);

    const second = await start();
    // The product finishes what the crash left: charges settled, leases taken over, refunds paid,
    // unlocks finished. Then nothing may stay processing.
    const processing = async () => {
      const pages = await Promise.all(tokens.map((t) => api<{ images: ImageJson[] }>('GET', '/images/?limit=50', t)));
      return pages.flatMap((p) => p.body.images.filter((img) => img.status === 'processing'));
    };
    await waitFor(async () => (await processing()).length === 0, 'every image completed or failed', 60_000).catch(
      async (error: Error) => {
        throw new Error(
          `${error.message}: still processing ${JSON.stringify(await processing())}\n${second.output().slice(-6000)}`,
        );
      },
    );
    // A failed job's refund and a pending unlock may still be in flight right after: wait until
    // the books agree, then check them once more, strictly.
    const books = async (token: string) => {
      const history = (await api<TransactionsJson>('GET', '/tokens/?limit=100', token)).body;
      const images = (await api<{ images: ImageJson[] }>('GET', '/images/?limit=50', token)).body.images;
      const unlockedDone = images.filter((img) => img.status === 'completed' && !img.is_locked).length;
      const sum = history.transactions.reduce((total, t) => total + t.amount, 0);
      return { balance: history.balance, sum, unlockedDone, images, history: history.transactions };
    };
    const balanced = (b: Awaited<ReturnType<typeof books>>) =>
      b.sum === b.balance && SIGN_UP_GRANT - b.balance === 100 * b.unlockedDone;
    await waitFor(
      async () => (await Promise.all(tokens.map(books))).every(balanced),
      'every user’s books balanced',
      60_000,
    );
    let failed = 0;
    let unlocked = 0;
    for (const token of tokens) {
      const b = await books(token);
      const detail = JSON.stringify({ images: b.images, history: b.history });
      assert.equal(b.sum, b.balance, `the history sums to the balance: ${detail}`);
      assert.equal(SIGN_UP_GRANT - b.balance, 100 * b.unlockedDone, `100 tokens per unlocked result: ${detail}`);
      assert.ok(
        b.images.every((img) => img.status !== 'processing'),
        detail,
      );
      failed += b.images.filter((img) => img.status === 'failed').length;
      unlocked += b.unlockedDone;
    }
    // The run exercised what it claims to: failed jobs (refunded) and delivered results.
    assert.ok(failed > 0, 'some jobs failed and were refunded');
    assert.ok(unlocked > 0, 'some results were delivered');
  });
});
