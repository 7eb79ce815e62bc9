import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { chooseProvider, DEFAULT_PROMPT } from './choose-provider.js';
import type { GenerativeSettings } from './settings-source.js';

const settings: GenerativeSettings = {
  baseUrl: 'http://provider/v1',
  apiKey: 'k',
  model: 'm',
  plans: ['pro', 'studio'],
  prompts: { tops: 'top prompt', shoes: 'shoe prompt' },
  timeoutMs: 1000,
};
const active = (plan: string) => ({ plan, status: 'active' });

describe('chooseProvider', () => {
  it('is local when switched off, for guests, other plans and inactive subscriptions', () => {
    assert.deepEqual(chooseProvider(undefined, active('pro'), 'tops'), { provider: 'local' });
    assert.deepEqual(chooseProvider(settings, undefined, 'tops'), { provider: 'local' });
    assert.deepEqual(chooseProvider(settings, active('lite'), 'tops'), { provider: 'local' });
    assert.deepEqual(chooseProvider(settings, { plan: 'pro', status: 'canceled' }, 'tops'), { provider: 'local' });
  });

  it("picks the sub-type's prompt, then its main type's, then the default", () => {
    assert.deepEqual(chooseProvider(settings, active('Studio'), 'tops'), {
      provider: 'generative',
      prompt: 'top prompt',
    });
    assert.deepEqual(chooseProvider(settings, active('pro'), 'front_view'), {
      provider: 'generative',
      prompt: 'shoe prompt',
    });
    assert.deepEqual(chooseProvider(settings, active('pro'), 'shoes'), {
      provider: 'generative',
      prompt: 'shoe prompt',
    });
    assert.deepEqual(chooseProvider(settings, active('pro'), 'jewelry'), {
      provider: 'generative',
      prompt: DEFAULT_PROMPT,
    });
  });
});
