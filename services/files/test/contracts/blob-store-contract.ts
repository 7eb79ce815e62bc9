// One contract for every BlobStore adapter: what the image service relies on, checked against
// the folder store and a real S3 server alike.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { it } from 'vitest';
import { readAll, type BlobStore } from '../../src/blobs/blob-store.js';

export function blobStoreContract(store: () => BlobStore) {
  const base = `contract-${randomUUID()}`;

  it('stores a stream and gives the same bytes and type back', async () => {
    const key = `${base}/a/photo.jpg`;
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    // In uneven chunks, as an upload arrives.
    const chunks = [bytes.subarray(0, 1000), bytes.subarray(1000, 70_001), bytes.subarray(70_001)];
    const info = await store().put(key, Readable.from(chunks), 'image/jpeg');
    assert.deepEqual(info, { size: bytes.length, contentType: 'image/jpeg' });
    assert.deepEqual(await store().head(key), { size: bytes.length, contentType: 'image/jpeg' });
    const blob = await store().get(key);
    assert.ok(blob);
    assert.equal(blob.contentType, 'image/jpeg');
    assert.equal(blob.size, bytes.length);
    assert.ok((await readAll(blob.body)).equals(bytes));
  });

  it('replaces a blob put again at the same key', async () => {
    const key = `${base}/replace.png`;
    await store().put(key, Buffer.from('first'), 'image/png');
    await store().put(key, Buffer.from('second!'), 'image/webp');
    assert.deepEqual(await store().head(key), { size: 7, contentType: 'image/webp' });
    assert.equal((await readAll((await store().get(key))!.body)).toString(), 'second!');
  });

  it('answers undefined for a missing key, and deleting one is no error', async () => {
    const key = `${base}/nothing-here`;
    assert.equal(await store().head(key), undefined);
    assert.equal(await store().get(key), undefined);
    await store().delete(key);
  });

  it('deletes one blob', async () => {
    const key = `${base}/gone.jpg`;
    await store().put(key, Buffer.from('x'), 'image/jpeg');
    await store().delete(key);
    assert.equal(await store().head(key), undefined);
  });

  it('deletes everything under a prefix and nothing beside it', async () => {
    await store().put(`${base}/images/1/result.jpg`, Buffer.from('r'), 'image/jpeg');
    await store().put(`${base}/images/1/preview.jpg`, Buffer.from('p'), 'image/jpeg');
    await store().put(`${base}/images/1/deeper/more.png`, Buffer.from('m'), 'image/png');
    await store().put(`${base}/images/10/result.jpg`, Buffer.from('other'), 'image/jpeg');
    assert.equal(await store().deletePrefix(`${base}/images/1/`), 3);
    assert.equal(await store().head(`${base}/images/1/result.jpg`), undefined);
    assert.equal(await store().head(`${base}/images/1/deeper/more.png`), undefined);
    assert.deepEqual(await store().head(`${base}/images/10/result.jpg`), { size: 5, contentType: 'image/jpeg' });
    assert.equal(await store().deletePrefix(`${base}/images/1/`), 0);
  });

  it('refuses keys that could leave the store', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', ''])
      await assert.rejects(store().put(key, Buffer.from('x'), 'text/plain'), /invalid blob key/);
  });
}
