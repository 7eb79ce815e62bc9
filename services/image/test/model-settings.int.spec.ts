import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createEngine, EngineError } from '../src/engine/index.js';
import { loadSegmentationModel } from '../src/engine/model/session.js';

/** The engine reads MODEL_PATH, ENGINE_CUDA and ENGINE_MODEL_CACHE once, in createEngine; the model loader only gets settings. */
describe('model settings', () => {
  const saved = { MODEL_PATH: process.env.MODEL_PATH, ENGINE_CUDA: process.env.ENGINE_CUDA };
  beforeAll(() => {
    process.env.ENGINE_CUDA = 'true'; // malformed: createEngine must refuse it
    process.env.MODEL_PATH = '/from/the/environment.onnx';
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('createEngine checks the environment and names the variable', async () => {
    await assert.rejects(
      createEngine(),
      (e: unknown) => e instanceof EngineError && e.code === 'INVALID_CONFIG' && /ENGINE_CUDA/.test(e.message),
    );
  });

  it('the loader uses the settings it is given and never the environment', async () => {
    await assert.rejects(
      loadSegmentationModel({ modelPath: '/nowhere/given.onnx', cuda: '0' }),
      (e: unknown) =>
        e instanceof EngineError &&
        e.code === 'MODEL_UNAVAILABLE' &&
        /\/nowhere\/given\.onnx/.test(e.message) &&
        !/environment/.test(e.message),
    );
  });
});
