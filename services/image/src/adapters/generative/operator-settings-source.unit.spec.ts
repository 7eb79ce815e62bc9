// Which settings a job runs under: the operator's key (SettingsChanged, kept sealed) over the
// environment's, everything else from the environment, read anew for every job.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { sealSetting, type Logger } from '@flatlay/platform';
import type { SealedSetting } from '../sealed-settings-store.js';
import { apiKeySetting, OperatorGenerativeSettings } from './operator-settings-source.js';
import { chooseGenerativeSettings, generativeEnvFrom } from './settings-source.js';

const env = generativeEnvFrom({
  GENERATIVE_API_KEY: 'sk-env',
  GENERATIVE_API_URL: 'http://provider.test/v1/',
  GENERATIVE_MODEL: 'image-model',
  GENERATIVE_PLANS: 'studio',
  GENERATIVE_PROMPTS: '{"tops":"a top"}',
  GENERATIVE_TIMEOUT_MS: '5000',
});
const fromEnv = {
  baseUrl: 'http://provider.test/v1',
  model: 'image-model',
  plans: ['studio'],
  prompts: { tops: 'a top' },
  timeoutMs: 5000,
};

describe('the generative settings a job runs under', () => {
  it("takes the operator's key when one is set, else the environment's; the rest is the environment's", () => {
    assert.deepEqual(chooseGenerativeSettings(env, 'sk-operator'), { ...fromEnv, apiKey: 'sk-operator' });
    assert.deepEqual(chooseGenerativeSettings(env, undefined), { ...fromEnv, apiKey: 'sk-env' });
    assert.deepEqual(chooseGenerativeSettings(env, ''), { ...fromEnv, apiKey: 'sk-env' }, 'a cleared key');
    const keyless = { ...env, apiKey: undefined };
    assert.deepEqual(chooseGenerativeSettings(keyless, 'sk-operator'), { ...fromEnv, apiKey: 'sk-operator' });
    assert.equal(chooseGenerativeSettings(keyless, undefined), undefined, 'off without any key');
    assert.equal(chooseGenerativeSettings({ ...env, plans: [] }, 'sk-operator'), undefined, 'off without plans');
  });

  describe('from the operator settings', () => {
    const provider = 'acme';
    const name = apiKeySetting(provider);
    const settingsKey = randomBytes(32);

    function source(kept: { current?: SealedSetting }, key: Buffer | undefined = settingsKey) {
      const warnings: unknown[] = [];
      const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
      const reads: string[] = [];
      const s = new OperatorGenerativeSettings({
        env,
        provider,
        read: async (setting) => {
          reads.push(setting);
          return kept.current;
        },
        settingsKey: async () => key,
        logger,
      });
      return { s, warnings, reads };
    }

    it("answers the operator's key, reading it again for every job, and the environment's once it is cleared", async () => {
      const kept: { current?: SealedSetting } = {};
      const { s, reads, warnings } = source(kept);
      assert.equal((await s.current())?.apiKey, 'sk-env', 'never set');
      kept.current = { sealed: sealSetting(settingsKey, name, 'sk-operator-1'), version: 1 };
      assert.deepEqual(await s.current(), { ...fromEnv, apiKey: 'sk-operator-1' });
      kept.current = { sealed: sealSetting(settingsKey, name, 'sk-operator-2'), version: 2 };
      assert.equal((await s.current())?.apiKey, 'sk-operator-2', 'the next job, no restart');
      kept.current = { sealed: undefined, version: 3 };
      assert.equal((await s.current())?.apiKey, 'sk-env', 'cleared');
      assert.deepEqual(reads, [name, name, name, name]);
      assert.equal(warnings.length, 0);
    });

    it("falls back to the environment's key, warning once, when the operator's cannot be opened", async () => {
      const other = randomBytes(32);
      const kept = { current: { sealed: sealSetting(other, name, 'sk-operator'), version: 4 } };
      const wrongKey = source(kept);
      assert.equal((await wrongKey.s.current())?.apiKey, 'sk-env');
      assert.equal((await wrongKey.s.current())?.apiKey, 'sk-env');
      assert.equal(wrongKey.warnings.length, 1, 'once per stored version, not per job');
      const noKey = source(kept, undefined);
      assert.equal((await noKey.s.current())?.apiKey, 'sk-env');
      assert.equal(noKey.warnings.length, 1);
      // Sealed for another setting: the name is the associated data, so it does not open as this one.
      const moved = source({ current: { sealed: sealSetting(settingsKey, 'other_api_key', 'sk-x'), version: 5 } });
      assert.equal((await moved.s.current())?.apiKey, 'sk-env');
      assert.doesNotMatch(JSON.stringify([...wrongKey.warnings, ...noKey.warnings]), /sk-/, 'never a key in a log');
    });
  });
});
