import { parentPort, workerData } from 'node:worker_threads';
import { createEngine } from './engine.js';
import {
  serializeError,
  type FromEngineThread,
  type ThreadedEngineConfig,
  type ToEngineThread,
} from './thread-messages.js';

/** The engine thread's side (see thread.ts): loads the model once, then answers requests. */
const port = parentPort;
if (!port) throw new Error('thread-host.ts runs only as a worker thread (createThreadedEngine starts it)');
const send = (m: FromEngineThread) => port.postMessage(m);

try {
  const engine = await createEngine(workerData as ThreadedEngineConfig);
  port.on('message', (m: ToEngineThread) => {
    if (m.type === 'close') {
      void engine.close().finally(() => port.close());
      return;
    }
    engine.enhance(Buffer.from(m.input.buffer, m.input.byteOffset, m.input.byteLength), m.options).then(
      (result) => send({ type: 'result', id: m.id, result }),
      (err: unknown) => send({ type: 'error', id: m.id, error: serializeError(err) }),
    );
  });
  send({ type: 'ready', runtime: engine.runtime });
} catch (err) {
  send({ type: 'failed', error: serializeError(err) });
  port.close();
}
