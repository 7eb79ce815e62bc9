import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, assertPrefix, type Blob, type BlobInfo, type BlobStore } from './blob-store.js';

// One machine's blob store: each blob a file under the root, its content type in a small
// sidecar file beside it. A blob is written to a temporary name and renamed into place, so a
// reader never sees half a file.

const META = '.meta';

export class FolderBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private path(key: string) {
    return join(this.root, assertKey(key));
  }

  async put(key: string, body: Readable | Buffer, contentType: string): Promise<BlobInfo> {
    const file = this.path(key);
    await mkdir(dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp));
      await writeFile(`${tmp}${META}`, contentType);
      await rename(`${tmp}${META}`, `${file}${META}`);
      await rename(tmp, file);
    } catch (error) {
      await rm(tmp, { force: true });
      await rm(`${tmp}${META}`, { force: true });
      throw error;
    }
    return { size: (await stat(file)).size, contentType };
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    const file = this.path(key);
    try {
      const [info, contentType] = await Promise.all([stat(file), readFile(`${file}${META}`, 'utf8')]);
      return info.isFile() ? { size: info.size, contentType } : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async get(key: string): Promise<Blob | undefined> {
    const info = await this.head(key);
    return info && { ...info, body: createReadStream(this.path(key)) };
  }

  async delete(key: string): Promise<void> {
    const file = this.path(key);
    await rm(file, { force: true });
    await rm(`${file}${META}`, { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const dir = this.path(assertPrefix(prefix).slice(0, -1));
    let entries: string[];
    try {
      entries = (await readdir(dir, { recursive: true })) as string[];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
        return 0;
      throw error;
    }
    const blobs = entries.filter((e) => e.endsWith(META)).length;
    await rm(dir, { recursive: true, force: true });
    return blobs;
  }
}
