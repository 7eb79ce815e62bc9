import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { loadSettingsKey, openSetting, parseSettingsKey, sealSetting } from './settings-cipher.js';

describe('settings cipher (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and nothing sealed for another setting or under another key', () => {
    const sealed = sealSetting(key, 'openai_api_key', 'sk-secret-1234');
    assert.ok(!sealed.includes(Buffer.from('sk-secret-1234')));
    assert.equal(openSetting(key, 'openai_api_key', sealed), 'sk-secret-1234');
    assert.throws(() => openSetting(key, 'other_api_key', sealed));
    assert.throws(() => openSetting(randomBytes(32), 'openai_api_key', sealed));
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    assert.throws(() => openSetting(key, 'openai_api_key', tampered));
    assert.notDeepEqual(sealSetting(key, 'k', 'v'), sealSetting(key, 'k', 'v'), 'a fresh IV each time');
  });

  it('reads a key as hex or base64 and refuses anything else', () => {
    assert.deepEqual(parseSettingsKey(key.toString('hex')), key);
    assert.deepEqual(parseSettingsKey(key.toString('base64')), key);
    assert.equal(parseSettingsKey('too short'), undefined);
  });

  it('generates a key file (mode 0600) once and reads the same key after', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'settings-key-'));
    try {
      const file = join(dir, 'analytics', 'settings-encryption.key');
      assert.equal(await loadSettingsKey({ keyFile: file, create: false }), undefined, 'a reader never makes one');
      await assert.rejects(stat(file), /ENOENT/);
      const first = await loadSettingsKey({ keyFile: file });
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      assert.deepEqual(await loadSettingsKey({ keyFile: file }), first);
      assert.deepEqual(await loadSettingsKey({ keyFile: file, create: false }), first);
      assert.deepEqual(parseSettingsKey(await readFile(file, 'utf8')), first);
      assert.deepEqual(await loadSettingsKey({ key: key.toString('hex'), keyFile: file }), key, 'the variable wins');
      assert.equal(await loadSettingsKey({}), undefined);
      await assert.rejects(loadSettingsKey({ key: 'nope' }), /SETTINGS_ENCRYPTION_KEY must be 32 bytes/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
