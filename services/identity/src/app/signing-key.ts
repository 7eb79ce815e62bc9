import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '@flatlay/platform';

export interface SigningKey {
  alg: 'ES256' | 'RS256' | 'EdDSA';
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Key id in the token header: lets a rotated deployment tell keys apart. */
  kid: string;
}

/** Builds a signing key from a PEM private key (PKCS#8 or SEC1/PKCS#1), naming its algorithm by key type. */
export function signingKeyFromPem(pem: string): SigningKey {
  const privateKey = createPrivateKey(pem.includes('\\n') ? pem.replaceAll('\\n', '\n') : pem);
  const publicKey = createPublicKey(privateKey);
  const type = privateKey.asymmetricKeyType;
  let alg: SigningKey['alg'];
  if (type === 'ec' && privateKey.asymmetricKeyDetails?.namedCurve === 'prime256v1') alg = 'ES256';
  else if (type === 'rsa' && (privateKey.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048) alg = 'RS256';
  else if (type === 'ed25519') alg = 'EdDSA';
  else throw new Error('JWT_PRIVATE_KEY must be an EC P-256, RSA (2048 bits or more) or Ed25519 private key');
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const kid = Buffer.from(der).toString('base64url').slice(-16);
  return { alg, privateKey, publicKey, kid };
}

const generatePem = () =>
  generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();

/**
 * The key that signs access tokens: JWT_PRIVATE_KEY when set; else the PEM in JWT_KEY_FILE,
 * generated there (mode 0600) on first start so restarts keep sessions; else a key that lives
 * only as long as the process (development and tests; refused in production by the config).
 */
export async function loadSigningKey(
  options: { privateKeyPem?: string; keyFile?: string },
  logger: Logger,
): Promise<SigningKey> {
  if (options.privateKeyPem) return signingKeyFromPem(options.privateKeyPem);
  if (options.keyFile) {
    const existing = await readFile(options.keyFile, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (existing) return signingKeyFromPem(existing);
    const pem = generatePem();
    await mkdir(dirname(options.keyFile), { recursive: true });
    // 'wx' fails if a sibling process wrote the file first; then that file is the key.
    const written = await writeFile(options.keyFile, pem, { flag: 'wx', mode: 0o600 }).then(
      () => true,
      (e: NodeJS.ErrnoException) => {
        if (e.code === 'EEXIST') return false;
        throw e;
      },
    );
    if (!written) return signingKeyFromPem(await readFile(options.keyFile, 'utf8'));
    await chmod(options.keyFile, 0o600);
    logger.info({ keyFile: options.keyFile }, 'generated a new access-token signing key');
    return signingKeyFromPem(pem);
  }
  logger.warn('no JWT_PRIVATE_KEY or JWT_KEY_FILE: access tokens are signed with a key that ends with this process');
  return signingKeyFromPem(generatePem());
}
