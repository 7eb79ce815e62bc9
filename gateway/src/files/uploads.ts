// Multipart uploads, streamed to the blob store as they arrive (busboy): each file's type is
// sniffed from its first bytes, its size counted against the limit, and it is written under
// uploads/<id>. A refused upload (too large, not an image of ours, a malformed body) leaves no
// blob behind, and neither does a request that fails later (the router deletes what was stored
// unless the handler kept it: `keepUpload`).
import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import busboy from 'busboy';
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { AppError, type Logger } from '@flatlay/platform';
import type { BlobStore } from '@flatlay/files';
import { SNIFF_BYTES, sniffImageType } from './sniff.js';

/** A file part of a multipart body, as the handler gets it: already stored. */
export interface StoredUpload {
  key: string;
  contentType: string;
  size: number;
  filename: string;
}

/** Which part carries files, how many, and how large each may be. */
export interface UploadSpec {
  field: string;
  maxFiles: number;
  maxFileBytes: number;
}

/** Bytes a multipart body may carry besides its files (boundaries, part headers, text fields). */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export const fileTooLarge = (maxFileBytes: number) =>
  `The image is larger than ${Math.round(maxFileBytes / (1024 * 1024))}MB. Please choose a smaller file.`;
export const NOT_AN_IMAGE = 'Please choose an image file (JPG, PNG, WEBP, HEIC or AVIF).';

/**
 * A file part in the document: binary, at least one byte (the reader refuses an empty file with
 * 400 'The file is empty'). At run time the handler sees the stored upload, so the schema checks
 * that shape; the document shows what a client sends.
 */
export const uploadField = (description: string) =>
  z.object({ key: z.string(), contentType: z.string(), size: z.number(), filename: z.string() }).meta({
    description,
    override: ({ jsonSchema }) => {
      for (const k of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[k];
      Object.assign(jsonSchema, { type: 'string', format: 'binary', minLength: 1, description });
    },
  });

declare module 'express-serve-static-core' {
  interface Request {
    /** Keys this request stored and no handler has kept yet (deleted if the request fails). */
    pendingUploads?: Set<string>;
  }
}

/** The handler has recorded this upload (e.g. a generation refers to it): it stays. */
export function keepUpload(req: Request, key: string): void {
  req.pendingUploads?.delete(key);
}

/** Deletes what a failed request stored. */
export async function discardUploads(req: Request, blobs: BlobStore, logger?: Logger): Promise<void> {
  const keys = [...(req.pendingUploads ?? [])];
  req.pendingUploads?.clear();
  await Promise.all(
    keys.map((key) =>
      blobs.delete(key).catch((err) => logger?.error({ err, key }, 'could not delete a refused upload')),
    ),
  );
}

/** Streams one file part into the store, once its first bytes say it is an image we take. */
function storeFile(file: Readable, blobs: BlobStore, key: string, onStored: () => void): Promise<StoredUpload | Error> {
  return new Promise((resolve) => {
    let head = Buffer.alloc(0);
    let out: PassThrough | undefined;
    let refusal: AppError | undefined;
    let put: Promise<unknown> | undefined;
    let size = 0;
    let contentType = '';
    const start = () => {
      const type = sniffImageType(head);
      if (!type) {
        refusal = new AppError('UNSUPPORTED_MEDIA_TYPE', NOT_AN_IMAGE);
        return;
      }
      contentType = type;
      out = new PassThrough();
      // A store that stops reading (a failed write) must not stall the request: read on and drop.
      out.on('close', () => file.resume());
      onStored();
      put = blobs.put(key, out, type);
      out.write(head);
    };
    file.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (refusal) return;
      if (!out) {
        head = Buffer.concat([head, chunk]);
        if (head.length >= SNIFF_BYTES) start();
        return;
      }
      if (out.destroyed) return;
      if (!out.write(chunk)) {
        file.pause();
        out.once('drain', () => file.resume());
      }
    });
    // busboy stops at the limit (the rest of the part is dropped) and says so.
    file.on('limit', () => {
      refusal = new AppError('PAYLOAD_TOO_LARGE', 'too large');
      out?.destroy(refusal);
    });
    file.on('error', (error) => {
      refusal ??= new AppError('INVALID_ARGUMENT', `The upload broke off: ${error.message}`);
      out?.destroy(refusal);
    });
    file.on('end', () => {
      if (!out && !refusal) {
        if (head.length === 0) refusal = new AppError('INVALID_ARGUMENT', 'The file is empty');
        else start();
      }
      if (!put) return resolve(refusal ?? new AppError('INVALID_ARGUMENT', 'The file could not be read'));
      if (!refusal) out!.end();
      put.then(
        () => resolve(refusal ?? { key, contentType, size, filename: '' }),
        (error: unknown) => resolve(refusal ?? (error instanceof Error ? error : new Error(String(error)))),
      );
    });
  });
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/**
 * The body reader of a multipart operation: text fields into the body as strings (the first of a
 * repeated name), file parts of `spec.field` stored and given to the handler (one, or a list when
 * `maxFiles` > 1). Other file parts are read and dropped.
 */
export function multipartReader(spec: UploadSpec, blobs: BlobStore): RequestHandler {
  return (req, _res, next) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          fileSize: spec.maxFileBytes,
          files: spec.maxFiles,
          fields: 50,
          fieldSize: 16 * 1024,
          parts: spec.maxFiles + 50,
        },
      });
    } catch (error) {
      return next(new AppError('INVALID_ARGUMENT', `The multipart body cannot be read: ${(error as Error).message}`));
    }
    req.pendingUploads = new Set();
    const fields: Record<string, unknown> = {};
    const files: Array<Promise<StoredUpload | Error>> = [];
    let admitted: Promise<Error | undefined> | undefined;
    let problem: AppError | undefined;
    parser.on('field', (name, value) => {
      if (!(name in fields) && name !== spec.field) fields[name] = value;
    });
    parser.on('file', (name, file, info) => {
      if (name !== spec.field) {
        file.resume();
        return;
      }
      const key = `uploads/${randomUUID()}`;
      // A check of the fields sent before the file (req.beforeFiles, e.g. a guest's e-mail
      // address against its limits) runs first: a refused request never gets its file stored.
      if (!admitted)
        admitted = req.beforeFiles
          ? req.beforeFiles({ ...fields }).then(() => undefined, asError)
          : Promise.resolve(undefined);
      files.push(
        admitted.then((refusal) => {
          if (refusal) {
            file.resume();
            return refusal;
          }
          return storeFile(file, blobs, key, () => req.pendingUploads!.add(key)).then((stored) =>
            stored instanceof Error ? stored : { ...stored, filename: info.filename ?? '' },
          );
        }),
      );
    });
    parser.on('filesLimit', () => {
      problem ??= new AppError('INVALID_ARGUMENT', `At most ${spec.maxFiles} file(s) in "${spec.field}"`);
    });
    parser.on('partsLimit', () => {
      problem ??= new AppError('INVALID_ARGUMENT', 'The multipart body has too many parts');
    });
    let settled = false;
    const finish = async (error?: Error) => {
      if (settled) return;
      settled = true;
      const results = await Promise.all(files);
      const refused = error ?? problem ?? results.find((r): r is Error => r instanceof Error);
      if (refused) {
        await discardUploads(req, blobs);
        if (refused instanceof AppError && refused.code === 'PAYLOAD_TOO_LARGE')
          return next(new AppError('PAYLOAD_TOO_LARGE', fileTooLarge(spec.maxFileBytes)));
        return next(refused);
      }
      const stored = results as StoredUpload[];
      if (stored.length > 0) fields[spec.field] = spec.maxFiles === 1 ? stored[0] : stored;
      req.body = fields;
      next();
    };
    parser.on('close', () => void finish());
    parser.on('error', (error: Error) => {
      req.unpipe(parser);
      req.resume();
      void finish(new AppError('INVALID_ARGUMENT', `The multipart body cannot be read: ${error.message}`));
    });
    req.on('aborted', () => void finish(new AppError('INVALID_ARGUMENT', 'The upload was aborted')));
    req.pipe(parser);
  };
}
