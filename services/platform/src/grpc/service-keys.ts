// The key pairs of service identity (ADR 0008): each caller signs its service credentials with an
// Ed25519 private key of its own, and a called service checks them against the callers' public
// keys. A stolen key speaks only as its own component, with only that component's call edges.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config.js';
import { callerNames, type CallerName } from '../registry.js';

/**
 * Each caller's public keys, by caller name: one, or two while its key is being rotated (the new
 * key is accepted before the caller signs with it, and the old one until every caller has moved).
 */
export type PublicKeys = ReadonlyMap<string, readonly KeyObject[]>;

export interface ServiceKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}
export type ServiceKeyPairs = Record<CallerName, ServiceKeyPair>;

/** A fresh key pair for every caller. */
export function generateServiceKeys(): ServiceKeyPairs {
  return Object.fromEntries(callerNames.map((c) => [c, generateKeyPairSync('ed25519')])) as ServiceKeyPairs;
}

let inProcess: ServiceKeyPairs | undefined;

/**
 * The key pairs of one process tree (the embedded default, tests): generated in memory at first
 * use, never written anywhere, so only code in this process can mint tokens its servers accept.
 */
export function inProcessServiceKeys(): ServiceKeyPairs {
  inProcess ??= generateServiceKeys();
  return inProcess;
}

const inProcessSecrets = new Map<string, Buffer>();

/**
 * A secret of this process tree, generated in memory at first use (32 random bytes per purpose):
 * for keys that only its own parts share in the embedded default (e.g. the file-URL signing key).
 */
export function inProcessSecret(purpose: string): Buffer {
  let secret = inProcessSecrets.get(purpose);
  if (!secret) {
    secret = randomBytes(32);
    inProcessSecrets.set(purpose, secret);
  }
  return secret;
}

export const publicKeysOf = (pairs: ServiceKeyPairs): PublicKeys =>
  new Map(callerNames.map((c) => [c, [pairs[c].publicKey]]));

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** Every public key in a PEM file: public keys or X.509 certificates of them, one or more. */
export function publicKeysInPem(text: string): KeyObject[] {
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new Error('no PEM public key or certificate in it');
  return blocks.map((block) => ed25519(createPublicKey(block)));
}

export const privateKeyPem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString();
export const publicKeyPem = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();

/** The file of `caller`'s public key in SERVICE_PUBLIC_KEYS_DIR. */
export const publicKeyFile = (caller: CallerName) => `${caller}.pem`;

/** Writes every caller's public key into `dir` as SERVICE_PUBLIC_KEYS_DIR expects them (tests, local runs). */
export function writePublicKeys(dir: string, pairs: ServiceKeyPairs): void {
  for (const c of callerNames) writeFileSync(join(dir, publicKeyFile(c)), publicKeyPem(pairs[c].publicKey));
}

function ed25519(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`an ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}

const privateKeyText = (label: string) =>
  z.string().transform((pem, ctx) => {
    try {
      return ed25519(createPrivateKey(pem.replaceAll('\\n', '\n')));
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: `not a PEM Ed25519 private key (${label}): ${(error as Error).message}`,
      });
      return z.NEVER;
    }
  });

const readable = (what: (text: string) => KeyObject) =>
  z.string().transform((path, ctx) => {
    try {
      return what(readFileSync(path, 'utf8'));
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `${path}: ${(error as Error).message}` });
      return z.NEVER;
    }
  });

/**
 * The settings of a component's own identity. SERVICE_AUTH_SECRET, the one secret every component
 * once shared, is refused by name so an old deployment fails at start rather than half-working.
 */
export const serviceIdentityEnvSchema = z.object({
  // This component's Ed25519 private key, PEM (PKCS#8), inline or in a file (the chart mounts one).
  SERVICE_PRIVATE_KEY: privateKeyText('SERVICE_PRIVATE_KEY').optional().meta({
    description:
      "this component's own Ed25519 private key (PEM, PKCS#8), inline; one of it and `SERVICE_PRIVATE_KEY_FILE`. It signs the component's internal gRPC calls; required for a service, the gateway or a generation worker run as its own process (docs/decisions/0008-service-identity.md)",
    default: 'unset: key pairs generated in memory (embedded default)',
  }),
  SERVICE_PRIVATE_KEY_FILE: readable((pem) => ed25519(createPrivateKey(pem)))
    .optional()
    .meta({
      description: 'a file holding that key (the chart mounts one); one of it and `SERVICE_PRIVATE_KEY`',
      default: 'unset: key pairs generated in memory (embedded default)',
    }),
  SERVICE_AUTH_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined, {
      message:
        'no longer read: each component signs with its own key (SERVICE_PRIVATE_KEY or SERVICE_PRIVATE_KEY_FILE) and services check callers against SERVICE_PUBLIC_KEYS_DIR (docs/decisions/0008-service-identity.md); remove it',
    })
    .meta({
      description:
        'no longer read: a process given it refuses to start (each component signs with its own key, `SERVICE_PRIVATE_KEY`)',
      default: 'unset (must stay unset)',
    }),
});

/** The callers' public keys, for a component that serves gRPC. */
export const servicePublicKeysEnvSchema = z.object({
  // A folder holding `<caller>.pem` for every caller: its PEM public key or an X.509 certificate of it.
  SERVICE_PUBLIC_KEYS_DIR: z.string().min(1).meta({
    description:
      "a folder with `<caller>.pem` for every caller (`gateway`, `identity`, `ledger`, `image`, `billing`, `analytics`, `image-worker`): its public key, PEM or an X.509 certificate of it (two, one after the other, while that caller's key is rotated: either is accepted, docs/operations.md); a service checks each call's signature against its caller's key and its method against the registry's edges; required for a service or worker run as its own process",
    default: 'required (the embedded default needs none)',
  }),
});

/** This component's private key from its settings (one of SERVICE_PRIVATE_KEY, SERVICE_PRIVATE_KEY_FILE). */
export function servicePrivateKeyFrom(config: z.infer<typeof serviceIdentityEnvSchema>): KeyObject {
  if (config.SERVICE_PRIVATE_KEY && config.SERVICE_PRIVATE_KEY_FILE)
    throw new ConfigError(['SERVICE_PRIVATE_KEY and SERVICE_PRIVATE_KEY_FILE are both set: set one']);
  const key = config.SERVICE_PRIVATE_KEY ?? config.SERVICE_PRIVATE_KEY_FILE;
  if (!key)
    throw new ConfigError([
      "SERVICE_PRIVATE_KEY or SERVICE_PRIVATE_KEY_FILE is required but not set (this component's Ed25519 private key, PEM)",
    ]);
  return key;
}

/**
 * Every caller's public keys from SERVICE_PUBLIC_KEYS_DIR (`<caller>.pem`, which may hold two
 * during a rotation); a missing or unreadable one fails the start, naming the file. When `self` is
 * given, its own file must hold the public key of `privateKey` (a mounted key of another component
 * would otherwise surface only as refused calls).
 */
export function readPublicKeys(dir: string, self?: { caller: CallerName; privateKey: KeyObject }): PublicKeys {
  const keys = new Map<string, KeyObject[]>();
  const problems: string[] = [];
  for (const caller of callerNames) {
    const path = join(dir, publicKeyFile(caller));
    try {
      keys.set(caller, publicKeysInPem(readFileSync(path, 'utf8')));
    } catch (error) {
      problems.push(`SERVICE_PUBLIC_KEYS_DIR is invalid: ${path}: ${(error as Error).message}`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  if (self) {
    const own = publicKeyPem(createPublicKey(self.privateKey));
    if (!keys.get(self.caller)!.some((k) => publicKeyPem(k) === own))
      throw new ConfigError([
        `SERVICE_PRIVATE_KEY is not ${self.caller}'s key: its public key is not in ${join(dir, publicKeyFile(self.caller))}`,
      ]);
  }
  return keys;
}

/** What a standalone process that serves gRPC holds: its own private key and every caller's public key. */
export interface ServiceKeys {
  privateKey: KeyObject;
  publicKeys: PublicKeys;
}

/** A component's keys from the environment, checked at start (services, the image worker). */
export function serviceKeysFromEnv(caller: CallerName, env: NodeJS.ProcessEnv = process.env): ServiceKeys {
  const config = loadConfig(serviceIdentityEnvSchema.extend(servicePublicKeysEnvSchema.shape), env);
  const privateKey = servicePrivateKeyFrom(config);
  return { privateKey, publicKeys: readPublicKeys(config.SERVICE_PUBLIC_KEYS_DIR, { caller, privateKey }) };
}
