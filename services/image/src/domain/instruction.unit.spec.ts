import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { checkInstruction, INSTRUCTION_MAX_LENGTH } from './instruction.js';

const studio = { plan: 'studio', status: 'active' };
const on = { providerPlans: ['studio', 'pro'], plan: studio };

describe('checkInstruction (advanced prompting)', () => {
  it('lets an active subscriber of a served plan prompt, trimmed', () => {
    assert.deepEqual(checkInstruction('  keep the logo visible ', on), {
      allowed: true,
      instruction: 'keep the logo visible',
    });
    assert.deepEqual(checkInstruction('x'.repeat(INSTRUCTION_MAX_LENGTH), on), {
      allowed: true,
      instruction: 'x'.repeat(INSTRUCTION_MAX_LENGTH),
    });
  });

  it('takes no instruction (blank) from anyone, provider or not', () => {
    for (const raw of [undefined, '', '   '])
      assert.deepEqual(checkInstruction(raw, { providerPlans: undefined, plan: undefined }), {
        allowed: true,
        instruction: null,
      });
  });

  it('refuses one over the limit, before anything else', () => {
    const v = checkInstruction('x'.repeat(INSTRUCTION_MAX_LENGTH + 1), { providerPlans: undefined, plan: undefined });
    assert.equal(v.allowed, false);
    assert.equal(!v.allowed && v.reason, 'too_long');
  });

  it('refuses where no generative provider is configured, even a subscriber', () => {
    const v = checkInstruction('brighter', { providerPlans: undefined, plan: studio });
    assert.equal(!v.allowed && v.reason, 'not_configured');
  });

  it('refuses guests, the never subscribed, inactive plans and plans the provider does not serve', () => {
    for (const plan of [undefined, { plan: 'studio', status: 'canceled' }, { plan: 'lite', status: 'active' }]) {
      const v = checkInstruction('brighter', { providerPlans: ['studio'], plan });
      assert.equal(!v.allowed && v.reason, 'subscription_required');
    }
  });
});
