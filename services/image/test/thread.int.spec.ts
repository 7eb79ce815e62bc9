import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  createEngine,
  createThreadedEngine,
  EngineError,
  type Engine,
  type ThreadedEngine,
} from '../src/engine/index.js';

/** The engine hosted in a worker thread gives the same results as in the caller's thread. */
const photo = fileURLToPath(new URL('./fixtures/shoes_pair_02.jpg', import.meta.url));

describe('engine in a worker thread', () => {
  let threaded: ThreadedEngine;
  let local: Engine;
  beforeAll(async () => {
    [threaded, local] = await Promise.all([createThreadedEngine(), createEngine()]);
  });
  afterAll(async () => {
    await Promise.all([threaded?.close(), local?.close()]);
  });

  it('runs in its own thread and answers exactly what the engine answers in this one', async () => {
    assert.notEqual(threaded.threadId, threadId);
    const input = await readFile(photo);
    const options = { type: 'two_shoe', size: 640, preset: 'shopify' } as const;
    const [a, b] = await Promise.all([threaded.enhance(input, options), local.enhance(input, options)]);
    assert.ok(Buffer.isBuffer(a.full) && Buffer.isBuffer(a.thumbnail) && Buffer.isBuffer(a.preview));
    assert.deepEqual([a.width, a.height, a.format], [b.width, b.height, b.format]);
    assert.deepEqual(a.checks, b.checks);
    assert.deepEqual(a.geometry.layout, b.geometry.layout);
    assert.ok(a.full.equals(b.full), 'the same bytes');
    assert.ok(a.preview.equals(b.preview));
  });

  it('passes the engine’s typed errors back, and keeps working after one', async () => {
    await assert.rejects(
      threaded.enhance(Buffer.from('%PDF-1.7 not an image')),
      (e: unknown) => e instanceof EngineError && e.code === 'UNSUPPORTED_FORMAT' && /PDF/.test(e.message),
    );
    const r = await threaded.enhance(await readFile(photo), { type: 'two_shoe', size: 320 });
    assert.equal(Math.max(r.width, r.height), 320);
  });

  it('refuses to start when the model cannot be loaded, naming it', async () => {
    await assert.rejects(
      createThreadedEngine({ modelPath: '/nowhere/model.onnx' }),
      (e: unknown) =>
        e instanceof EngineError && e.code === 'MODEL_UNAVAILABLE' && /\/nowhere\/model\.onnx/.test(e.message),
    );
  });

  it('refuses work after close', async () => {
    const engine = await createThreadedEngine();
    await engine.close();
    await assert.rejects(
      engine.enhance(Buffer.alloc(10)),
      (e: unknown) => e instanceof EngineError && e.code === 'ENGINE_CLOSED',
    );
  });
});
