import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { checkIdempotencyKey, keyedUuid } from './keyed-id.js';

describe('keyed ids', () => {
  it('gives one name the same version-8 UUID every time, and another name another', () => {
    const a = keyedUuid('image:user-1\nkey');
    assert.equal(a, keyedUuid('image:user-1\nkey'));
    assert.notEqual(a, keyedUuid('image:user-2\nkey'));
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('takes an Idempotency-Key of 1 to 255 visible ASCII characters, none at all, and refuses the rest', () => {
    assert.equal(checkIdempotencyKey(undefined), undefined);
    assert.equal(checkIdempotencyKey('7f3c9a2e-action'), '7f3c9a2e-action');
    assert.equal(checkIdempotencyKey('x'.repeat(255)), 'x'.repeat(255));
    for (const bad of ['x'.repeat(256), 'with space', 'tab\there', 'ключ'])
      assert.throws(() => checkIdempotencyKey(bad), { code: 'INVALID_ARGUMENT' }, JSON.stringify(bad));
  });
});
