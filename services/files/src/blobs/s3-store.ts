import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { assertKey, assertPrefix, readAll, type Blob, type BlobInfo, type BlobStore } from './blob-store.js';

export interface S3StoreConfig {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO); unset: AWS itself. */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

const missing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * A cluster's blob store: one S3 bucket. Photos are at most 10 MB and results a few MB, so a
 * put reads its stream into memory and sends it with its length in one request.
 */
export class S3BlobStore implements BlobStore {
  private readonly s3: S3Client;

  constructor(private readonly config: S3StoreConfig) {
    this.s3 = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}),
    });
  }

  async put(key: string, body: Readable | Buffer, contentType: string): Promise<BlobInfo> {
    const bytes = await readAll(body);
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: assertKey(key),
        Body: bytes,
        ContentType: contentType,
        ContentLength: bytes.length,
      }),
    );
    return { size: bytes.length, contentType };
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    try {
      const r = await this.s3.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: assertKey(key) }));
      return { size: r.ContentLength ?? 0, contentType: r.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async get(key: string): Promise<Blob | undefined> {
    try {
      const r = await this.s3.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: assertKey(key) }));
      const body = r.Body instanceof Readable ? r.Body : Readable.from([]);
      return { size: r.ContentLength ?? 0, contentType: r.ContentType ?? 'application/octet-stream', body };
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: assertKey(key) }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertPrefix(prefix);
    let deleted = 0;
    // Listing again after each batch: the deleted keys are gone, so the next page starts fresh.
    for (;;) {
      const page = await this.s3.send(
        new ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: prefix, MaxKeys: 1000 }),
      );
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length === 0) return deleted;
      await this.s3.send(
        new DeleteObjectsCommand({ Bucket: this.config.bucket, Delete: { Objects: keys, Quiet: true } }),
      );
      deleted += keys.length;
    }
  }

  close(): void {
    this.s3.destroy();
  }
}
