// AES-256-GCM for operator settings: analytics stores secrets with it, SettingsChanged carries them
// with it, and a service that uses a secret (the image service's generative key) opens it with the
// same SETTINGS_ENCRYPTION_KEY. The key's name is the associated data, so a ciphertext cannot be
// moved to another setting.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte key from 64 hex characters or base64 (44 characters); undefined for anything else. */
export function parseSettingsKey(text: string): Buffer | undefined {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const b = Buffer.from(t, 'base64');
    if (b.length === 32) return b;
  }
  return undefined;
}

/** iv (12) | tag (16) | ciphertext, with `name` (the setting's key) as associated data. */
export function sealSetting(key: Buffer, name: string, plaintext: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plaintext of sealSetting's output; throws when the key, the name or the bytes differ. */
export function openSetting(key: Buffer, name: string, sealed: Uint8Array): string {
  const b = Buffer.from(sealed);
  if (b.length < IV_BYTES + TAG_BYTES) throw new Error('sealed setting is too short');
  const decipher = createDecipheriv('aes-256-gcm', key, b.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(name, 'utf8'));
  decipher.setAuthTag(b.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(b.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

/**
 * The settings key: SETTINGS_ENCRYPTION_KEY when given; else the key file, generated (mode 0600)
 * when missing, as the embedded default does in its data folder; else undefined (secrets cannot
 * be stored, and saving one answers NOT_CONFIGURED). With `create: false` (a service that only
 * opens secrets, such as the image service) a missing file is undefined too: the file is the
 * keeper's (analytics') to make.
 */
export async function loadSettingsKey(options: {
  key?: string;
  keyFile?: string;
  create?: boolean;
}): Promise<Buffer | undefined> {
  if (options.key) {
    const key = parseSettingsKey(options.key);
    if (!key) throw new Error('SETTINGS_ENCRYPTION_KEY must be 32 bytes: 64 hex characters or base64');
    return key;
  }
  if (!options.keyFile) return undefined;
  try {
    const key = parseSettingsKey(await readFile(options.keyFile, 'utf8'));
    if (!key) throw new Error(`${options.keyFile} does not hold a 32-byte key (64 hex characters or base64)`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (options.create === false) return undefined;
  const key = randomBytes(32);
  await mkdir(dirname(options.keyFile), { recursive: true });
  await writeFile(options.keyFile, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(options.keyFile, 0o600);
  return key;
}
