import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { engineEnv } from './config.js';
import { EngineError } from './errors.js';

const refused = (env: NodeJS.ProcessEnv, pattern: RegExp) =>
  assert.throws(
    () => engineEnv(env),
    (e: unknown) => e instanceof EngineError && e.code === 'INVALID_CONFIG' && pattern.test(e.message),
  );

describe('engine environment', () => {
  it('accepts an empty environment and the documented values', () => {
    const unset = {
      MODEL_PATH: undefined,
      ENGINE_CUDA: undefined,
      ENGINE_MODEL_CACHE: undefined,
      ENGINE_INFERENCE_SIZE: undefined,
      ENGINE_CROP_FIRST: undefined,
    };
    assert.deepEqual(engineEnv({}), unset);
    assert.deepEqual(engineEnv({ ENGINE_CUDA: '0', ENGINE_MODEL_CACHE: '/tmp/models', MODEL_PATH: process.execPath }), {
      ...unset,
      ENGINE_CUDA: '0',
      ENGINE_MODEL_CACHE: '/tmp/models',
      MODEL_PATH: process.execPath,
    });
    assert.equal(engineEnv({ ENGINE_INFERENCE_SIZE: '768' }).ENGINE_INFERENCE_SIZE, 768);
    assert.equal(engineEnv({ ENGINE_INFERENCE_SIZE: '1024' }).ENGINE_INFERENCE_SIZE, 1024);
    assert.equal(engineEnv({ ENGINE_CROP_FIRST: '1' }).ENGINE_CROP_FIRST, '1');
    assert.deepEqual(engineEnv({ ENGINE_CUDA: '' }), unset, 'an empty variable counts as unset');
  });

  it('names the variable and says what to use when a value is wrong', () => {
    refused({ ENGINE_CUDA: 'true' }, /ENGINE_CUDA is invalid: use 0 \(CPU only\) or 1/);
    refused({ MODEL_PATH: '/nowhere/model.onnx' }, /MODEL_PATH is invalid: no file at that path/);
    refused({ ENGINE_CROP_FIRST: 'yes' }, /ENGINE_CROP_FIRST is invalid: use 1 \(crop first\) or 0/);
    for (const size of ['700', '2048', '128', 'big'])
      refused(
        { ENGINE_INFERENCE_SIZE: size },
        /ENGINE_INFERENCE_SIZE is invalid: use a multiple of 32 from 256 to 1024/,
      );
  });
});
