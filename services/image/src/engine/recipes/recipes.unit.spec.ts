import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { EngineError } from '../errors.js';
import { resolveRecipe, SUB_TYPES } from './index.js';

describe('recipes', () => {
  it('has a recipe for every sub-type', () => {
    for (const [type, subs] of Object.entries(SUB_TYPES)) {
      for (const sub of subs) {
        const r = resolveRecipe(type, sub);
        assert.equal(r.subType, sub);
        assert.equal(r.type, type);
        assert.equal(resolveRecipe(sub).subType, sub);
      }
    }
  });

  it('defaults to clothing/tops and picks a default sub-type per main type', () => {
    assert.equal(resolveRecipe().subType, 'tops');
    assert.equal(resolveRecipe('shoes').subType, 'two_shoe');
    assert.equal(resolveRecipe('shoes/side_view').subType, 'side_view');
  });

  it('details are cropped, not cut out; garments lose their hanger', () => {
    assert.equal(resolveRecipe('fabric_texture').mode, 'crop');
    assert.equal(resolveRecipe('tops').removeHanger, 'hooks'); // a top's straps stay
    assert.equal(resolveRecipe('bottoms').removeHanger, 'hooks-and-clips');
    assert.equal(resolveRecipe('bags_belts').removeHanger, false);
    assert.equal(resolveRecipe('two_shoe').pairSideBySide, true);
  });

  it('refuses unknown types with a typed error', () => {
    assert.throws(
      () => resolveRecipe('furniture'),
      (e: unknown) => e instanceof EngineError && e.code === 'INVALID_OPTIONS',
    );
    assert.throws(
      () => resolveRecipe('shoes', 'tops'),
      (e: unknown) => e instanceof EngineError && e.code === 'INVALID_OPTIONS',
    );
  });
});
