// How the gateway serves the built web app (web/dist): precompressed files where the build made
// them, long-lived caching for hashed assets, HTML that always revalidates, and the crawler's
// files (robots.txt, sitemap.xml). ADR 0713.
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import compression from 'compression';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { INDEXED_PAGES, NOT_INDEXED } from './public-pages.js';

/** Vite names every file under assets/ by its content's hash: a changed file is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** HTML names the current assets, so a browser asks each time (a 304 when nothing changed). */
const REVALIDATE = 'no-cache';
/** Files of public/ (showcase images, the intro video) keep their names across releases. */
const AN_HOUR = 'public, max-age=3600';

export function cacheControlFor(relativePath: string): string {
  if (relativePath.startsWith(`assets${sep}`) || relativePath.startsWith('assets/')) return IMMUTABLE;
  if (relativePath.endsWith('.html')) return REVALIDATE;
  return AN_HOUR;
}

/**
 * Compresses what is made per request (HTML, JSON answers of 1 KB or more) with brotli or gzip,
 * as the client accepts. Never the live-status stream: a compressor holds events back until its
 * buffer fills, and a browser would see each status late.
 */
export function compressAnswers(): RequestHandler {
  return compression({
    filter: (req, res) => {
      const type = String(res.getHeader('Content-Type') ?? '');
      if (type.startsWith('text/event-stream')) return false;
      return compression.filter(req, res);
    },
  });
}

const originOf = (req: Request) => `${req.protocol}://${req.get('host')}`;

function robots(req: Request, res: Response): void {
  const lines = [
    'User-agent: *',
    ...NOT_INDEXED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${originOf(req)}/sitemap.xml`,
    '',
  ];
  res.type('text/plain').setHeader('Cache-Control', AN_HOUR);
  res.send(lines.join('\n'));
}

function sitemap(req: Request, res: Response): void {
  const origin = originOf(req);
  const urls = INDEXED_PAGES.map((path) => `  <url><loc>${origin}${path === '/' ? '/' : path}</loc></url>`);
  res.type('application/xml').setHeader('Cache-Control', AN_HOUR);
  res.send(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
  );
}

/** The web app at webDir: its files, then index.html for every client-side route. */
export function serveWebApp(webDir: string): Router {
  const router = Router();
  router.get('/robots.txt', robots);
  router.get('/sitemap.xml', sitemap);
  router.use(
    expressStaticGzip(webDir, {
      enableBrotli: true,
      orderPreference: ['br', 'gz'],
      index: false,
      serveStatic: {
        index: false,
        setHeaders: (res, path) => {
          const relative = path.slice(webDir.length + 1).replace(/\.(br|gz)$/, '');
          res.setHeader('Cache-Control', cacheControlFor(relative));
        },
      },
    }),
  );
  const index = join(webDir, 'index.html');
  router.get('/{*path}', (_req, res) => {
    res.setHeader('Cache-Control', REVALIDATE);
    res.sendFile(index);
  });
  return router;
}

export const webAppBuilt = (webDir: string | undefined): webDir is string =>
  Boolean(webDir && existsSync(join(webDir, 'index.html')));
