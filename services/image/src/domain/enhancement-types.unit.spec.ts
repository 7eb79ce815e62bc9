import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { checkEnhancementType } from './enhancement-types.js';

describe('enhancement types', () => {
  it('lets everyone use the main types and the first sub-type of each group', () => {
    for (const t of ['clothing', 'accessory', 'shoes', 'details', 'tops', 'jewelry', 'two_shoe', 'logo_detail'])
      assert.deepEqual(checkEnhancementType(t, false), { allowed: true, type: t });
    assert.deepEqual(checkEnhancementType('', false), { allowed: true, type: 'clothing' });
  });

  it('keeps the other sub-types for active subscribers', () => {
    const refused = checkEnhancementType('side_view', false);
    assert.equal(refused.allowed, false);
    assert.equal(!refused.allowed && refused.reason, 'subscription_required');
    assert.deepEqual(checkEnhancementType('side_view', true), { allowed: true, type: 'side_view' });
  });

  it('refuses a type the engine does not know', () => {
    const v = checkEnhancementType('hats', true);
    assert.equal(!v.allowed && v.reason, 'unknown');
  });
});
