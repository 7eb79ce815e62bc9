import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { planCardLines } from './plan-lines';

const lite = {
  tokens_per_month: 1700,
  features: ['1700 tokens a month', 'Sub-type enhancement options', 'Priority support', 'Advanced Prompting Options'],
};

describe('a plan card’s checklist', () => {
  it('states the token count once, for the chosen period, with the first two other features', () => {
    assert.deepEqual(planCardLines(lite, 'monthly', true), [
      '1,700 tokens a month',
      'Sub-type enhancement options',
      'Priority support',
      'Advanced Prompting Options',
    ]);
    assert.deepEqual(planCardLines(lite, 'yearly', true), [
      '20,400 tokens a year',
      'Sub-type enhancement options',
      'Priority support',
      'Advanced Prompting Options',
    ]);
  });

  it('names Advanced Prompting Options once, wherever the catalogue lists it', () => {
    const lines = planCardLines(
      { tokens_per_month: 4000, features: ['Advanced Prompting Options', '4,000 tokens'] },
      'monthly',
      true,
    );
    assert.deepEqual(lines, ['4,000 tokens a month', 'Advanced Prompting Options']);
  });

  it('promises Advanced Prompting Options only where a generative provider is configured', () => {
    assert.deepEqual(planCardLines(lite, 'monthly', false), [
      '1,700 tokens a month',
      'Sub-type enhancement options',
      'Priority support',
    ]);
    assert.deepEqual(planCardLines(lite, 'monthly'), planCardLines(lite, 'monthly', false), 'off unless told');
  });
});
