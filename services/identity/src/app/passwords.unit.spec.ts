import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { Passwords } from './passwords.js';

describe('passwords', () => {
  const passwords = new Passwords();

  it('hashes with argon2id, salted (two hashes of one password differ)', async () => {
    const a = await passwords.hash('correct horse battery');
    const b = await passwords.hash('correct horse battery');
    assert.match(a, /^\$argon2id\$v=19\$/);
    assert.notEqual(a, b);
  });

  it('checks a password against its hash', async () => {
    const stored = await passwords.hash('correct horse battery');
    assert.equal(await passwords.check('correct horse battery', stored), true);
    assert.equal(await passwords.check('Correct horse battery', stored), false);
  });

  it('answers false for an account without a password, and for a corrupt hash, without throwing', async () => {
    assert.equal(await passwords.check('anything', null), false);
    assert.equal(await passwords.check('anything', undefined), false);
    assert.equal(await passwords.check('anything', 'not-a-hash'), false);
  });
});
