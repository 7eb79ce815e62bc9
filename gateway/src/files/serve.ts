// GET /files/<key>: the files the image service points browsers at, each at a signed URL that
// expires (services/files/src/urls/signed-url.ts). The signature covers the path and the expiry,
// so a link works only for the file it was made for and only until then. A locked result's full
// file is never signed, so it has no URL at all.
import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { AppError, type Logger } from '@flatlay/platform';
import { verifySignedUrl, type BlobStore } from '@flatlay/files';
import { downloadName } from './sniff.js';

export const FILES_PREFIX = '/files/';

/**
 * A refused link: 403 with the same words, and nothing else, for every reason (expired, a changed
 * path or expiry, no signature): which check failed would tell a prober what to try next.
 */
export const LINK_REFUSED = 'Link expired or invalid. Reload the page to get a new one.';

export interface FileServing {
  blobs: BlobStore;
  /** The key the image service signs URLs with. */
  urlKey: Buffer;
  clock?: () => Date;
}

export function fileRoutes(files: FileServing, logger: Logger): Router {
  const router = Router();
  const clock = files.clock ?? (() => new Date());
  router.get('/files/*key', async (req, res, next) => {
    try {
      const key = (req.params as { key: string[] }).key.join('/');
      const q = req.query as Record<string, unknown>;
      const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const now = clock();
      const check = verifySignedUrl(files.urlKey, `${FILES_PREFIX}${key}`, str(q.expires), str(q.signature), now);
      if (!check.ok) throw new AppError('PERMISSION_DENIED', LINK_REFUSED);
      const blob = await files.blobs.get(key).catch(() => undefined);
      if (!blob) throw new AppError('NOT_FOUND', 'This file no longer exists');
      const maxAge = Math.max(0, Number(q.expires) - Math.floor(now.getTime() / 1000));
      res.setHeader('Content-Type', blob.contentType);
      res.setHeader('Content-Length', String(blob.size));
      res.setHeader('Content-Disposition', `inline; filename="${downloadName(blob.contentType)}"`);
      res.setHeader('Cache-Control', `private, max-age=${maxAge}`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      await pipeline(blob.body, res).catch((err: unknown) => {
        if (!res.headersSent) throw err;
        logger.debug({ err, key }, 'a file download broke off');
      });
    } catch (error) {
      next(error);
    }
  });
  return router;
}
