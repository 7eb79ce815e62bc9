import { Worker } from 'node:worker_threads';
import { EngineError } from './errors.js';
import type { Engine } from './engine.js';
import type { EnhanceOptions } from './options.js';
import type { EnhanceResult } from './pipeline.js';
import {
  reviveError,
  type FromEngineThread,
  type ThreadedEngineConfig,
  type ToEngineThread,
} from './thread-messages.js';

export type { ThreadedEngineConfig } from './thread-messages.js';

/**
 * The engine in a worker thread. onnxruntime-node runs an inference synchronously on the calling
 * thread (about 1.6 s on 2 cores), so an engine on a service's main thread would stall its
 * health checks, gRPC calls and Kafka heartbeats for that long on every photo. Here the model
 * loads and runs in its own thread; the caller's event loop only posts and receives messages.
 * Photos and results are copied between the threads (a few MB, about a millisecond).
 */
export interface ThreadedEngine extends Engine {
  /** The worker thread's id (never the caller's). */
  readonly threadId: number;
}

/**
 * Built, the host runs from dist. Under tsx (development, tests) it runs from source, and a worker
 * thread does not get tsx's loader from the parent's `--import tsx`, so it registers it first.
 */
function startHost(config: ThreadedEngineConfig): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./thread-host.js', import.meta.url), { workerData: config });
  const tsx = import.meta.resolve('tsx/esm/api');
  const host = new URL('./thread-host.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.register()).then(() => import(${JSON.stringify(host)}))`;
  return new Worker(bootstrap, { eval: true, workerData: config });
}

/** Starts the thread and loads the model in it; rejects if the model cannot be loaded. */
export async function createThreadedEngine(config: ThreadedEngineConfig = {}): Promise<ThreadedEngine> {
  const worker = startHost(config);
  const pending = new Map<number, { resolve: (r: EnhanceResult) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let gone: Error | null = null;
  const failAll = (err: Error) => {
    gone ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };

  let runtime: ThreadedEngine['runtime'];
  await new Promise<void>((resolve, reject) => {
    const onMessage = (m: FromEngineThread) => {
      if (m.type === 'ready') {
        runtime = m.runtime;
        done(resolve);
      } else if (m.type === 'failed') done(() => reject(reviveError(m.error)));
    };
    const onError = (err: Error) => done(() => reject(err));
    const onExit = (code: number) =>
      done(() =>
        reject(new EngineError('MODEL_UNAVAILABLE', `the engine thread stopped while loading (exit ${code})`)),
      );
    const done = (then: () => void) => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      then();
    };
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  }).catch(async (err: unknown) => {
    await worker.terminate();
    throw err;
  });

  worker.on('message', (m: FromEngineThread) => {
    if (m.type !== 'result' && m.type !== 'error') return;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.type === 'result') p.resolve(reviveResult(m.result));
    else p.reject(reviveError(m.error));
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new EngineError('ENGINE_CLOSED', `the engine thread stopped (exit ${code})`)));

  return {
    threadId: worker.threadId,
    runtime,
    enhance(input: Buffer, options: EnhanceOptions = {}) {
      if (gone) return Promise.reject(gone);
      const id = nextId++;
      return new Promise<EnhanceResult>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        const message: ToEngineThread = {
          type: 'enhance',
          id,
          input: new Uint8Array(input.buffer, input.byteOffset, input.byteLength),
          options,
        };
        worker.postMessage(message);
      });
    },
    async close() {
      if (gone) return;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ type: 'close' } satisfies ToEngineThread);
      await exited;
    },
  };
}

/** Structured cloning turns Buffers into plain Uint8Arrays; callers get Buffers back. */
function reviveResult(r: EnhanceResult): EnhanceResult {
  const buf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  return { ...r, full: buf(r.full), thumbnail: buf(r.thumbnail), preview: buf(r.preview) };
}
