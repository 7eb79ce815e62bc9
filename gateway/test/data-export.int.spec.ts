// Exporting one's data through the running gateway (ADR 0403): identity, ledger, billing (the local
// payment provider) and image (a generation worker on a stand-in engine) on real Postgres and
// Kafka, e-mail read from a real SMTP server. A person who signed up, bought a pack and made an
// image asks for an export; the e-mail's link (no sign-in needed) serves a JSON archive with their
// profile, the 200-token sign-up grant and the pack in their history, the payment, and the image
// with a working link to its file; a changed link is refused; deleting the account removes it.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call } from '@flatlay/platform';
import { waitFor } from '../../services/platform/test/support.js';
import { waitForMail } from '../../services/platform/test/mailbox.js';
import type { EnhanceEngine } from '../../services/image/src/app/generation-worker.js';
import { EXPORT_REQUESTED } from '../src/routes/account-care.js';
import { pay } from './support/local-checkout.js';
import { startStack, type Stack, type TransactionsBody } from './support/stack.js';

const photo = await readFile(new URL('../../services/image/test/fixtures/top_floor_01.jpg', import.meta.url));
const engine: EnhanceEngine = {
  async enhance() {
    const full = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    return { full, preview: full, thumbnail: full, width: 80, height: 60, format: 'jpeg', timings: {} } as never;
  },
  async close() {},
};

interface Archive {
  format: string;
  profile: { id: string; email: string };
  tokens: { balance: number; history: Array<{ amount: number; description: string }> };
  payments: Array<{ kind: string; tokens: number; amount_cents: number }>;
  images: Array<{ id: string; status: string; original_url: string; result_url: string | null }>;
}

describe('exporting one’s data', () => {
  let s: Stack;

  beforeAll(async () => {
    s = await startStack('data-export', undefined, { billing: {}, image: { engine }, dataExports: true });
  });
  afterAll(async () => s?.stop());

  it('mails a link to a JSON archive of the profile, tokens, payments and images; the link is signed', async () => {
    const user = await s.newUser('export');
    const balance = async () =>
      (await s.request<TransactionsBody>('GET', '/tokens/', { token: user.token })).body.balance ?? 0;
    await waitFor(async () => (await balance()) === 200, 'the sign-up grant');
    const checkout = await s.request<{ url: string }>('POST', '/payments/create-checkout-session', {
      token: user.token,
      json: { price_id: 'price_main_pack', product_type: 'payment' },
    });
    assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
    await pay(s.base, checkout.body.url);
    await waitFor(async () => (await balance()) > 200, 'the pack credited');
    const upload = new FormData();
    upload.append('file', new Blob([photo]), 'photo.jpg');
    upload.append('enhancement_type', 'tops');
    const generated = await s.request<{ id: string }>('POST', '/images/generate', {
      token: user.token,
      multipart: upload,
    });
    assert.equal(generated.status, 200, JSON.stringify(generated.body));
    await waitFor(
      async () =>
        (await s.request<{ status: string }>('GET', `/images/status/${generated.body.id}`, { token: user.token })).body
          .status === 'completed',
      'the generation completed',
    );

    const asked = await s.request<{ message: string; export_id: string }>('POST', '/auth/export', {
      token: user.token,
    });
    assert.deepEqual([asked.status, asked.body.message], [202, EXPORT_REQUESTED]);
    assert.match(asked.body.export_id, /^[0-9a-f-]{36}$/);

    const [mail] = await waitForMail(user.email, 'Your Flatlay data export is ready');
    const link = (mail!.text.match(/https?:\/\/[^\s<>"]+/g) ?? []).find((u) =>
      new URL(u).pathname.startsWith(`/files/exports/${user.id}/`),
    );
    assert.ok(link, mail!.text);
    const url = new URL(link);
    // Valid for 7 days (from when it was made, a moment ago).
    const days = (Number(url.searchParams.get('expires')) * 1000 - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `expires in ${days} days`);

    // No sign-in: the signed link is what grants access.
    const res = await fetch(`${s.base}${url.pathname}${url.search}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const archive = (await res.json()) as Archive;
    assert.equal(archive.format, 'flatlay-data-export/1');
    assert.deepEqual([archive.profile.id, archive.profile.email], [user.id, user.email]);
    assert.equal(archive.tokens.history[0]?.amount, 200, 'the sign-up grant comes first');
    assert.equal(archive.tokens.balance, await balance());
    assert.equal(archive.payments.length, 1);
    assert.equal(archive.payments[0]?.kind, 'token_pack');
    assert.ok(archive.tokens.history.some((t) => t.amount === archive.payments[0]?.tokens));
    assert.deepEqual(
      archive.images.map((i) => [i.id, i.status]),
      [[generated.body.id, 'completed']],
    );
    // A whole address on the site the e-mail names, so it opens from the downloaded file.
    const fileLink = new URL(archive.images[0]!.original_url);
    assert.equal(fileLink.origin, url.origin);
    const original = await fetch(`${s.base}${fileLink.pathname}${fileLink.search}`);
    assert.equal(original.status, 200, 'the image’s file link works without signing in');
    assert.deepEqual(Buffer.from(await original.arrayBuffer()), photo);

    const forged = url.pathname.replace('.json', '0.json');
    assert.equal((await fetch(`${s.base}${forged}${url.search}`)).status, 403, 'a changed link is refused');

    // Deleting the account removes the archive with the images.
    const deleted = await s.request('POST', '/auth/delete-account', {
      token: user.token,
      json: { password: user.password, confirmation: 'DELETE' },
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    await waitFor(async () => {
      // Polled while the deletion runs: a download that began before storage removed the archive
      // is cut off mid-transfer (the connection closes: "fetch failed"), which means "not gone yet".
      try {
        const res = await fetch(`${s.base}${url.pathname}${url.search}`);
        await res.body?.cancel();
        return res.status === 404;
      } catch {
        return false;
      }
    }, 'the archive removed from storage');
  });

  it('deletes an archive once its link has expired (7 days old), not before, and marks it swept', async () => {
    const user = await s.newUser('export-sweep');
    const asked = await s.request<{ export_id: string }>('POST', '/auth/export', { token: user.token });
    assert.equal(asked.status, 202);
    const [mail] = await waitForMail(user.email, 'Your Flatlay data export is ready');
    const link = (mail!.text.match(/https?:\/\/[^\s<>"]+/g) ?? []).find((u) =>
      new URL(u).pathname.startsWith(`/files/exports/${user.id}/`),
    );
    assert.ok(link, mail!.text);
    const url = new URL(link);
    const archive = () => fetch(`${s.base}${url.pathname}${url.search}`).then((r) => r.status);
    const identityPool = s.services.find((x) => x.name === 'identity')!.context.pool;
    const sweptAt = async () =>
      (
        await identityPool.query<{ archive_swept_at: Date | null }>(
          'SELECT archive_swept_at FROM data_exports WHERE id = $1',
          [asked.body.export_id],
        )
      ).rows[0]?.archive_swept_at;

    await s.dataExports!.sweepOnce();
    assert.equal(await archive(), 200, 'a young archive is kept');
    assert.equal(await sweptAt(), null);
    // Its link has expired: made 7 days and a minute ago (the row's age is what identity counts).
    await identityPool.query(
      "UPDATE data_exports SET completed_at = completed_at - interval '7 days 1 minute' WHERE id = $1",
      [asked.body.export_id],
    );
    await s.dataExports!.sweepOnce();
    assert.equal(await archive(), 404, 'the expired archive is gone from storage');
    assert.ok(await sweptAt(), 'and marked, so it is not listed again');
    assert.equal(
      (
        await call(s.identityClient, s.identityClient.listExpiredDataExports, {
          olderThanSeconds: 7 * 86_400,
          limit: 10,
        })
      ).exports.filter((e) => e.exportId === asked.body.export_id).length,
      0,
    );
  });
});
