import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { WORKER_MALLOC_ENV, withWorkerMalloc } from './process-env.js';

describe('worker process environment', () => {
  it('adds the malloc settings and keeps everything else', () => {
    const env = withWorkerMalloc({ PATH: '/bin', MODEL_PATH: '/m.onnx' });
    assert.deepEqual(env, { ...WORKER_MALLOC_ENV, PATH: '/bin', MODEL_PATH: '/m.onnx' });
  });

  it("lets an operator's own value win", () => {
    assert.equal(withWorkerMalloc({ MALLOC_ARENA_MAX: '4' }).MALLOC_ARENA_MAX, '4');
    assert.equal(
      withWorkerMalloc({ MALLOC_ARENA_MAX: undefined }).MALLOC_ARENA_MAX,
      '2',
      'an unset variable is not a value',
    );
  });
});
