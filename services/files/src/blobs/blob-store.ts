import type { Readable } from 'node:stream';

// Originals, results and previews live behind this interface: a folder on one machine, an S3
// bucket in a cluster. Both pass one contract suite (test/contracts/blob-store-contract.ts).

export interface BlobInfo {
  size: number;
  contentType: string;
}

export interface Blob extends BlobInfo {
  body: Readable;
}

export interface BlobStore {
  /** Stores the stream's bytes at `key`, replacing what was there. */
  put(key: string, body: Readable | Buffer, contentType: string): Promise<BlobInfo>;
  /** The blob's bytes, or undefined when there is none. */
  get(key: string): Promise<Blob | undefined>;
  head(key: string): Promise<BlobInfo | undefined>;
  /** Removes the blob; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every blob whose key starts with `prefix` (which must end with '/'); returns how many. */
  deletePrefix(prefix: string): Promise<number>;
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Keys are slash-separated names of letters, digits, '.', '_' and '-', never '..': safe as paths. */
export function assertKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.') || key.length > 512)
    throw new Error(`invalid blob key "${key}"`);
  return key;
}

export function assertPrefix(prefix: string): string {
  if (!prefix.endsWith('/')) throw new Error(`a blob prefix must end with '/': "${prefix}"`);
  assertKey(prefix.slice(0, -1));
  return prefix;
}

export async function readAll(body: Readable | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
