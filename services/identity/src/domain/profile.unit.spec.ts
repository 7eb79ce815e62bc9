import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { cleanAvatarUrl, displayName, isUnlimited, planName, splitName } from './profile.js';

describe('display name', () => {
  it('is first plus last name, else first name, else the e-mail local part', () => {
    assert.equal(displayName('Ada', 'Lovelace', 'ada@example.com'), 'Ada Lovelace');
    assert.equal(displayName('Ada', '', 'ada@example.com'), 'Ada');
    assert.equal(displayName('  Ada ', null, 'ada@example.com'), 'Ada');
    assert.equal(displayName('', 'Lovelace', 'ada.l@example.com'), 'ada.l');
    assert.equal(displayName(undefined, undefined, 'someone@example.com'), 'someone');
  });

  it('splits a provider full name into first and last name', () => {
    assert.deepEqual(splitName('Ada King Lovelace'), { firstName: 'Ada', lastName: 'King Lovelace' });
    assert.deepEqual(splitName('  Ada  '), { firstName: 'Ada', lastName: '' });
    assert.deepEqual(splitName(''), { firstName: '', lastName: '' });
  });
});

describe('plan fields', () => {
  const now = new Date('2026-01-10T00:00:00Z');
  it('names the plans as shown, and none as empty', () => {
    assert.equal(planName('lite'), 'Lite');
    assert.equal(planName('unlimited'), 'Unlimited');
    assert.equal(planName('none'), '');
  });

  it('is unlimited only on an active unlimited plan whose period runs', () => {
    assert.equal(isUnlimited('unlimited', 'active', new Date('2026-02-01Z'), now), true);
    assert.equal(isUnlimited('unlimited', 'active', null, now), true);
    assert.equal(isUnlimited('unlimited', 'active', new Date('2026-01-01Z'), now), false);
    assert.equal(isUnlimited('unlimited', 'past_due', new Date('2026-02-01Z'), now), false);
    assert.equal(isUnlimited('studio', 'active', new Date('2026-02-01Z'), now), false);
  });
});

describe('avatar urls', () => {
  it('keeps http(s) urls and drops scripts, data and garbage', () => {
    assert.equal(cleanAvatarUrl('https://cdn.example/a.png'), 'https://cdn.example/a.png');
    assert.equal(cleanAvatarUrl('javascript:alert(1)'), '');
    assert.equal(cleanAvatarUrl('data:image/png;base64,AAAA'), '');
    assert.equal(cleanAvatarUrl('not a url'), '');
  });
});
