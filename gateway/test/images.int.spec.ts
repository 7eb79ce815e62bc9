// The image API through the gateway, on real Postgres and Kafka: the real identity, ledger and
// image services, one generation worker on a fake engine (a small real JPEG at once), uploads
// streamed to a blob folder the gateway shares with the image service, and files served at
// signed URLs.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call } from '@flatlay/platform';
import { urlSigner } from '@flatlay/files';
import { waitFor } from '../../services/platform/test/support.js';
import type { EnhanceEngine } from '../../services/image/src/app/generation-worker.js';
import { startStack, type Stack } from './support/stack.js';

const photo = await readFile(new URL('../../services/image/test/fixtures/top_floor_01.jpg', import.meta.url));

const fakeEngine: EnhanceEngine = {
  async enhance() {
    const full = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    const preview = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#eeeeee' } })
      .jpeg()
      .toBuffer();
    return { full, preview, thumbnail: preview, width: 80, height: 60, format: 'jpeg' } as never;
  },
  async close() {},
};

interface ImageJson {
  id: string;
  image_id: string;
  status: string;
  original_url: string | null;
  processed_url: string | null;
  preview_url: string | null;
  image_url: string | null;
  is_locked: boolean;
  createdAt: string | null;
}
interface GenerationJson {
  success: true;
  id: string;
  image_id: string;
  enhancement_id: string;
  status: string;
  tokensUsed: number;
  newBalance: number | null;
  is_locked: boolean;
  locked: boolean;
  preview_url: string | null;
}
interface UnlockJson {
  success: true;
  tokens_used: number;
  new_balance: number;
  image_url: string | null;
}

const form = (fields: Record<string, string>, file: Buffer | null = photo, name = 'photo.jpg') => {
  const f = new FormData();
  if (file) f.append('file', new Blob([file]), name);
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

describe('the image API through the gateway', { timeout: 180_000 }, () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('gateway-images-test', undefined, { image: { engine: fakeEngine } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const balanceOf = async (userId: string) =>
    (await call(stack.ledgerClient, stack.ledgerClient.getBalance, { userId })).balance;
  const deduct = (userId: string, tokens: number) =>
    call(stack.ledgerClient, stack.ledgerClient.adjust, {
      userId,
      adjustmentId: randomUUID(),
      operatorId: 'test',
      reason: 'test',
      direction: 'deduct',
      tokens,
    });
  const generate = async (token: string, fields: Record<string, string> = { enhancement_type: 'tops' }) => {
    const res = await stack.request<GenerationJson>('POST', '/images/generate', { token, multipart: form(fields) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const statusOf = async (token: string, id: string) => {
    const res = await stack.request<ImageJson & { error: string | null }>('GET', `/images/status/${id}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  const settled = async (token: string, id: string) => {
    await waitFor(async () => (await statusOf(token, id)).status !== 'processing', `image ${id} settles`);
    return statusOf(token, id);
  };
  const file = (url: string) => fetch(`${stack.base}${url}`);
  const uploadsLeft = async () =>
    (await readdir(join(stack.image!.blobRoot, 'uploads')).catch(() => [] as string[])).sort();
  const imageRows = async (userId: string) =>
    (await stack.image!.service.context.pool.query('SELECT 1 FROM images WHERE user_id = $1', [userId])).rowCount;

  it('generate, status, completed, list, download: charged once, every URL signed and served', async () => {
    const user = await stack.newUser('images');
    const created = await generate(user.token);
    assert.deepEqual(
      [created.success, created.status, created.tokensUsed, created.newBalance, created.is_locked, created.locked],
      [true, 'processing', 100, 100, false, false],
    );
    assert.equal(created.id, created.image_id);
    assert.equal(created.enhancement_id, created.image_id);

    const done = await settled(user.token, created.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.is_locked, false);
    assert.equal(done.error, null);
    assert.ok(done.processed_url && done.preview_url && done.original_url);
    assert.match(done.processed_url, /^\/files\/images\/[\w-]+\/result\.jpg\?expires=\d+&signature=/);

    const list = await stack.request<{ images: ImageJson[]; pagination: Record<string, unknown> }>(
      'GET',
      '/images/?page=1&limit=12',
      { token: user.token },
    );
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.images.map((i) => [i.id, i.image_id, i.status]),
      [[created.id, created.id, 'completed']],
    );
    assert.deepEqual(list.body.pagination, {
      page: 1,
      total_pages: 1,
      has_prev: false,
      has_next: false,
      total: 1,
      limit: 12,
    });
    assert.equal((await stack.request('GET', '/images/?limit=51', { token: user.token })).status, 400);

    const download = await file(done.processed_url);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'image/jpeg');
    assert.equal(download.headers.get('content-disposition'), 'inline; filename="enhanced.jpg"');
    assert.equal((await sharp(Buffer.from(await download.arrayBuffer())).metadata()).width, 80);
    const original = await file(done.original_url);
    assert.equal(original.status, 200);
    assert.deepEqual(Buffer.from(await original.arrayBuffer()), photo, 'the upload is stored byte for byte');
    assert.equal(await balanceOf(user.id), 100);
  });

  it('keeps sub-types for subscribers, refuses unknown types, and a token is required', async () => {
    const user = await stack.newUser('types');
    const before = await uploadsLeft();
    const sub = await stack.request('POST', '/images/generate', {
      token: user.token,
      multipart: form({ enhancement_type: 'side_view' }),
    });
    // A business refusal, never 403 (on which the web app signs the person out).
    assert.equal(sub.status, 422);
    assert.match(sub.body.message, /needs an active subscription/);
    const unknown = await stack.request('POST', '/images/generate', {
      token: user.token,
      multipart: form({ enhancement_type: 'hats' }),
    });
    assert.equal(unknown.status, 400);
    const anonymous = await stack.request('POST', '/images/generate', { multipart: form({}) });
    assert.equal(anonymous.status, 401);
    assert.match(anonymous.body.message, /Authentication required/);
    assert.deepEqual(await uploadsLeft(), before, 'the refused uploads left no file');
    // The open sub-types and the main types are everyone's (200 tokens: two charged, then locked).
    for (const open of ['jewelry', 'two_shoe', 'logo_detail', 'shoes']) {
      const created = await generate(user.token, { enhancement_type: open });
      assert.equal(created.is_locked, open === 'logo_detail' || open === 'shoes', open);
      await settled(user.token, created.id);
    }
    assert.equal(await imageRows(user.id), 4, 'the refused requests left no row');
  });

  it('refuses 11 MB, non-image and unknown-type uploads with no charge and no file or row left', async () => {
    const user = await stack.newUser('refused');
    const before = await uploadsLeft();
    const big = Buffer.concat([photo, Buffer.alloc(11 * 1024 * 1024 - photo.length)]);
    const tooBig = await stack.request('POST', '/images/generate', {
      token: user.token,
      multipart: form({}, big),
    });
    assert.equal(tooBig.status, 413);
    assert.match(tooBig.body.message, /larger than 10MB/);

    // The same without a Content-Length (chunked): refused while streaming, the partial file removed.
    const boundary = `----flatlay${randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunks = [head, big.subarray(0, 5_000_000), big.subarray(5_000_000), tail];
    const streamed = await fetch(`${stack.base}/api/images/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    assert.equal(streamed.status, 413);

    const text = await stack.request('POST', '/images/generate', {
      token: user.token,
      multipart: form({}, Buffer.from('this is a text file, not a photo\n'.repeat(10)), 'photo.jpg'),
    });
    assert.equal(text.status, 415);
    assert.match(text.body.message, /Please choose an image file/);
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } })
      .gif()
      .toBuffer();
    const unknown = await stack.request('POST', '/images/generate', {
      token: user.token,
      multipart: form({}, gif, 'photo.gif'),
    });
    assert.equal(unknown.status, 415);
    const none = await stack.request('POST', '/images/generate', { token: user.token, multipart: form({}, null) });
    assert.equal(none.status, 400);

    assert.equal(await balanceOf(user.id), 200, 'nothing was charged');
    assert.deepEqual(await uploadsLeft(), before, 'no upload was left behind');
    assert.equal(await imageRows(user.id), 0, 'no image row was written');
  });

  it("answers 404 for another user's image on every route", async () => {
    const owner = await stack.newUser('owner');
    const stranger = await stack.newUser('stranger');
    const { id } = await generate(owner.token);
    await settled(owner.token, id);
    for (const [method, path] of [
      ['GET', `/images/status/${id}`],
      ['POST', `/images/unlock-with-tokens/${id}`],
      ['POST', `/images/unlock-anonymous-with-tokens/${id}`],
      ['GET', `/images/anonymous/status/${id}`],
    ] as const) {
      const res = await stack.request(method, path, { token: stranger.token });
      assert.equal(res.status, 404, `${method} ${path}: ${JSON.stringify(res.body)}`);
    }
    const list = await stack.request<{ images: unknown[] }>('GET', '/images/', { token: stranger.token });
    assert.deepEqual(list.body.images, []);
    assert.equal(await balanceOf(stranger.id), 200);
  });

  it("never serves a locked result's full file; unlocks it once for 100 tokens", async () => {
    const user = await stack.newUser('locked');
    await deduct(user.id, 150);
    const created = await generate(user.token);
    assert.deepEqual([created.is_locked, created.locked, created.tokensUsed, created.newBalance], [true, true, 0, 50]);
    const locked = await settled(user.token, created.id);
    assert.equal(locked.status, 'completed');
    assert.equal(locked.processed_url, null, 'no URL for the full file');
    assert.ok(locked.preview_url);
    assert.equal(locked.image_url, locked.preview_url);
    assert.equal((await file(locked.preview_url)).status, 200);
    // The full file exists; a URL to it made from the preview's signature is refused.
    const { rows } = await stack.image!.service.context.pool.query(
      'SELECT result_key FROM images WHERE image_id = $1',
      [created.id],
    );
    assert.ok(await stack.image!.blobs.head(rows[0].result_key));
    const forged = locked.preview_url.replace(/preview\.jpg/, 'result.jpg');
    assert.notEqual(forged, locked.preview_url);
    assert.equal((await file(forged)).status, 403);
    assert.equal((await file(`/files/${rows[0].result_key}`)).status, 403, 'unsigned');

    const poor = await stack.request('POST', `/images/unlock-with-tokens/${created.id}`, { token: user.token });
    assert.equal(poor.status, 402);
    assert.equal(poor.body.message, "You don't have enough tokens to unlock this image.");
    await call(stack.ledgerClient, stack.ledgerClient.credit, {
      userId: user.id,
      paymentId: randomUUID(),
      packId: 'main',
      packName: 'Main',
      tokens: 100,
    });
    const unlocked = await stack.request<UnlockJson>('POST', `/images/unlock-with-tokens/${created.id}`, {
      token: user.token,
    });
    assert.equal(unlocked.status, 200, JSON.stringify(unlocked.body));
    assert.deepEqual([unlocked.body.tokens_used, unlocked.body.new_balance], [100, 50]);
    assert.ok(unlocked.body.image_url?.includes('/result.jpg'));
    assert.equal((await file(unlocked.body.image_url!)).status, 200);
    const again = await stack.request<UnlockJson>('POST', `/images/unlock-with-tokens/${created.id}`, {
      token: user.token,
    });
    assert.deepEqual(
      [again.status, again.body.success, again.body.tokens_used, again.body.new_balance],
      [200, true, 0, 50],
    );
    assert.equal(await balanceOf(user.id), 50);
  });

  it('refuses a signed URL past its expiry or with a changed path', async () => {
    const user = await stack.newUser('urls');
    const { id } = await generate(user.token);
    const done = await settled(user.token, id);
    const url = new URL(done.processed_url!, 'http://x');
    assert.equal((await file(done.processed_url!)).status, 200);
    const signer = urlSigner(stack.image!.urlKey);
    const expired = signer.sign(url.pathname, new Date(Date.now() - 2 * 3600_000));
    const later = new URL(expired, 'http://x').searchParams.get('expires')!;
    const moved = `${url.pathname}?expires=${Number(later) + 7200}&signature=${new URL(expired, 'http://x').searchParams.get('signature')}`;
    const otherPath = `${url.pathname.replace(id, randomUUID())}${url.search}`;
    const refusals = await Promise.all(
      [
        expired,
        moved,
        otherPath,
        `${url.pathname.replace('result.jpg', 'preview.jpg')}${url.search}`,
        url.pathname,
      ].map(async (u) => {
        const res = await file(u);
        return { status: res.status, body: await res.text() };
      }),
    );
    // Expired, an expiry moved (it is signed too), another file, no signature: one answer for
    // all, saying only that the link expired or is invalid, never which check failed.
    assert.deepEqual(
      refusals.map((r) => r.status),
      [403, 403, 403, 403, 403],
    );
    assert.equal(new Set(refusals.map((r) => r.body)).size, 1, refusals.map((r) => r.body).join('\n'));
    const body = JSON.parse(refusals[0]!.body) as Record<string, unknown>;
    assert.match(String(body.message), /^Link expired or invalid\./);
    assert.equal(body.context, undefined, 'no reason travels with the refusal');
  });

  it("a guest's try: generate, pending_payment with the preview only, claimed once for 100 tokens", async () => {
    const bad = await stack.request('POST', '/images/anonymous/generate', {
      multipart: form({ email: 'not-an-address', enhancement_type: 'clothing' }),
    });
    assert.equal(bad.status, 400);
    const noEmail = await stack.request('POST', '/images/anonymous/generate', { multipart: form({}) });
    assert.equal(noEmail.status, 400);

    const res = await stack.request<{ success: true; enhancement_id: string }>('POST', '/images/anonymous/generate', {
      multipart: form({ email: 'guest@example.com', enhancement_type: 'clothing' }),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.success, true);
    const id = res.body.enhancement_id;
    type Anon = { status: string; processed_url: string | null; preview_url: string | null; is_paid: boolean };
    const anonStatus = async () => (await stack.request<Anon>('GET', `/images/anonymous/status/${id}`)).body;
    await waitFor(async () => (await anonStatus()).status !== 'processing', 'the guest try settles');
    const pending = await anonStatus();
    assert.equal(pending.status, 'pending_payment');
    assert.equal(pending.is_paid, false);
    assert.ok(pending.preview_url);
    assert.equal(pending.processed_url, pending.preview_url, 'before payment both point at the preview');
    assert.match(pending.preview_url, /preview\.jpg/);

    const user = await stack.newUser('claim');
    const claimed = await stack.request<UnlockJson>('POST', `/images/unlock-anonymous-with-tokens/${id}`, {
      token: user.token,
    });
    assert.equal(claimed.status, 200, JSON.stringify(claimed.body));
    assert.deepEqual([claimed.body.success, claimed.body.tokens_used, claimed.body.new_balance], [true, 100, 100]);
    assert.ok(claimed.body.image_url?.includes('/result.jpg'));
    const again = await stack.request<UnlockJson>('POST', `/images/unlock-anonymous-with-tokens/${id}`, {
      token: user.token,
    });
    assert.deepEqual([again.status, again.body.tokens_used, again.body.new_balance], [200, 0, 100]);
    assert.equal(await balanceOf(user.id), 100);
    const other = await stack.newUser('late');
    assert.equal(
      (await stack.request('POST', `/images/unlock-anonymous-with-tokens/${id}`, { token: other.token })).status,
      404,
    );
    const paid = await anonStatus();
    assert.deepEqual([paid.status, paid.is_paid], ['completed', true]);
    assert.match(paid.processed_url ?? '', /result\.jpg/);
  });

  it('a batch of 3: one image per file, each charged like a single generate', async () => {
    const user = await stack.newUser('batch');
    const f = new FormData();
    for (let i = 0; i < 3; i++) f.append('files', new Blob([photo]), `photo-${i}.jpg`);
    f.append('enhancement_type', 'clothing');
    const res = await stack.request<{
      success: true;
      images: GenerationJson[];
      tokensUsed: number;
      newBalance: number;
    }>('POST', '/images/batch', { token: user.token, multipart: f });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.images.length, 3);
    assert.equal(new Set(res.body.images.map((i) => i.image_id)).size, 3);
    // 200 tokens: two charged, the third made locked.
    assert.deepEqual(
      res.body.images.map((i) => [i.tokensUsed, i.is_locked]),
      [
        [100, false],
        [100, false],
        [0, true],
      ],
    );
    assert.deepEqual([res.body.tokensUsed, res.body.newBalance], [200, 0]);
    for (const i of res.body.images) assert.equal((await settled(user.token, i.id)).status, 'completed');
    assert.equal(await balanceOf(user.id), 0);

    const before = await uploadsLeft();
    const mixed = new FormData();
    mixed.append('files', new Blob([photo]), 'a.jpg');
    mixed.append('files', new Blob([Buffer.from('not an image at all, just some text here')]), 'b.jpg');
    const refused = await stack.request('POST', '/images/batch', { token: user.token, multipart: mixed });
    assert.equal(refused.status, 415);
    assert.deepEqual(await uploadsLeft(), before, 'the good file of a refused batch is not left behind');
    assert.equal(await imageRows(user.id), 3);
  });

  it('streams status changes as Server-Sent Events, opened with a short-lived ticket', async () => {
    const user = await stack.newUser('events');
    assert.equal((await stack.request('POST', '/images/events/ticket')).status, 401);
    assert.equal((await fetch(`${stack.base}/api/images/events?ticket=${user.token}`)).status, 401, 'not a token');
    assert.equal((await fetch(`${stack.base}/api/images/events?ticket=forged.ticket`)).status, 401);
    const ticket = await stack.request<{ ticket: string; expires_in: number }>('POST', '/images/events/ticket', {
      token: user.token,
    });
    assert.equal(ticket.status, 200);
    assert.equal(ticket.body.expires_in, 60);
    const controller = new AbortController();
    const stream = await fetch(`${stack.base}/api/images/events?ticket=${encodeURIComponent(ticket.body.ticket)}`, {
      signal: controller.signal,
    });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get('content-type') ?? '', /^text\/event-stream/);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${pattern}: ${text}`);
        text += value;
      }
    };
    try {
      await until(/event: ready/);
      const { id } = await generate(user.token);
      await until(new RegExp(`event: image\nid: ${id}\ndata: [^\n]*"status":"completed"`));
      const events = text
        .split('\n\n')
        .filter((e) => e.startsWith('event: image'))
        .map((e) => JSON.parse(e.split('data: ')[1]!) as ImageJson);
      const done = events.find((e) => e.id === id && e.status === 'completed')!;
      assert.equal(done.is_locked, false);
      assert.ok(done.processed_url);
    } finally {
      controller.abort();
    }
  });

  it('ends a stream as soon as its session ends: a logout, or the account deleted by the admin', async () => {
    const controller = new AbortController();
    const ticketOf = async (token: string) =>
      (await stack.request<{ ticket: string }>('POST', '/images/events/ticket', { token })).body.ticket;
    const eventsUrl = (ticket: string) =>
      `${stack.base}/api/images/events?seconds=3600&ticket=${encodeURIComponent(ticket)}`;
    /** Opens a stream (for an hour) and reads it until `ready`. */
    const open = async (token: string) => {
      const res = await fetch(eventsUrl(await ticketOf(token)), { signal: controller.signal });
      assert.equal(res.status, 200);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      /** Reads until the text matches (true), or the stream ends (false). */
      const until = async (pattern: RegExp) => {
        while (!pattern.test(text)) {
          const { value, done } = await reader.read();
          if (done) return false;
          text += value;
        }
        return true;
      };
      assert.ok(await until(/event: ready/));
      return { until };
    };
    try {
      const user = await stack.newUser('events-end');
      const second = await stack.request<{ access_token: string }>('POST', '/auth/login', {
        json: { email: user.email, password: user.password },
      });
      const first = await open(user.token);
      const other = await open(second.body.access_token);
      const early = await ticketOf(user.token);

      assert.equal((await stack.request('POST', '/auth/logout', { token: user.token })).status, 200);
      assert.equal(await first.until(/(?!)/), false, "the logged-out session's stream ends");
      assert.equal((await fetch(eventsUrl(early))).status, 401, 'a ticket of the ended session opens nothing');
      // The user's other session goes on: its stream still delivers.
      const { id } = await generate(second.body.access_token);
      assert.ok(await other.until(new RegExp(`event: image\nid: ${id}\n`)), 'the other session streams on');

      const admin = await stack.request<{ access_token: string }>('POST', '/admin/login', {
        form: { username: stack.admin.email, password: stack.admin.password },
      });
      const deleted = await stack.request('DELETE', `/admin/user/delete?email=${encodeURIComponent(user.email)}`, {
        token: admin.body.access_token,
      });
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.equal(await other.until(/(?!)/), false, "a deleted account's streams end");
    } finally {
      controller.abort();
    }
  });
});
