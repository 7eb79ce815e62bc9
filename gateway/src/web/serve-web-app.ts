// How the gateway serves the built web app (web/dist): precompressed files where the build made
// them, long-lived caching for hashed assets, HTML that always revalidates, and the crawler's
// files (robots.txt, sitemap.xml). ADR 0713. The public pages are sent as the build prerendered
// them, with this site's origin and, where the list asks, the catalogue's offers (ADR 0714).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import compression from 'compression';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import {
  INDEXED_PAGES,
  NOT_INDEXED,
  ORIGIN_PLACEHOLDER,
  PUBLIC_PAGES,
  type PublicPage,
  prerenderedFile,
} from './public-pages.js';
import { remembered } from './remembered.js';
import { jsonLdScript, type ProductsAnswer, productStructuredData } from './structured-data.js';

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
  const compress = compression({
    filter: (req, res) => {
      const type = String(res.getHeader('Content-Type') ?? '');
      if (type.startsWith('text/event-stream')) return false;
      return compression.filter(req, res);
    },
  });
  // The hot path's answers (ADR 0510) are a few hundred bytes, always under the 1 KB threshold, yet
  // wrapping a response costs the same however small it is: a tenth or more of these paths'
  // throughput, measured (docs/benchmarks.md, "The compression middleware, A/B"). They skip it.
  return (req, res, next) => (SMALL_HOT_ANSWERS.has(req.path) ? next() : compress(req, res, next));
}

/** The paths of the API's hot path, whose answers are never large enough to compress. */
export const SMALL_HOT_ANSWERS = new Set(['/healthz', '/api/auth/me', '/api/tokens/balance']);

export interface WebAppOptions {
  /** The site's public address (PUBLIC_BASE_URL): canonical and shared links name it; unset: the request's origin. */
  publicBaseUrl?: string;
  /** The catalogue, for the offers of the home and pricing pages (billing's, as /api/payments/products answers). */
  products?: () => Promise<ProductsAnswer>;
}

/**
 * The request's origin (behind the ingress, `trust proxy` gives the public one), parsed: it is
 * written into pages, so a Host header that is no host name falls back to the loopback one.
 */
function requestOrigin(req: Request): string {
  try {
    return new URL(`${req.protocol}://${req.get('host')}`).origin;
  } catch {
    return 'http://localhost';
  }
}

/** How long the offers of the home and pricing pages are reused before billing is asked again. */
const OFFERS_KEPT_MS = 60_000;

/** A prerendered page with this site's origin written in, and its offers where it has them. */
async function sendPage(
  file: string,
  page: PublicPage,
  origin: string,
  products: (() => Promise<ProductsAnswer>) | undefined,
  res: Response,
): Promise<void> {
  let html = (await readFile(file, 'utf8')).replaceAll(ORIGIN_PLACEHOLDER, origin);
  if (page.offers && products) {
    // The page goes out without them when billing cannot answer: a visitor needs the page more
    // than a crawler needs its offers now (it reads them on its next visit).
    const catalogue = await products().catch(() => null);
    if (catalogue) html = html.replace('</head>', `${jsonLdScript(productStructuredData(catalogue, origin))}</head>`);
  }
  res.setHeader('Cache-Control', REVALIDATE);
  res.type('html').send(html);
}

function robots(origin: string, res: Response): void {
  const lines = [
    'User-agent: *',
    ...NOT_INDEXED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ];
  res.type('text/plain').setHeader('Cache-Control', AN_HOUR);
  res.send(lines.join('\n'));
}

function sitemap(origin: string, res: Response): void {
  const urls = INDEXED_PAGES.map((path) => `  <url><loc>${origin}${path === '/' ? '/' : path}</loc></url>`);
  res.type('application/xml').setHeader('Cache-Control', AN_HOUR);
  res.send(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
  );
}

/**
 * The web app at webDir: the public pages as the build prerendered them, its files, then
 * index.html (the empty shell) for every other client-side route.
 */
export function serveWebApp(webDir: string, options: WebAppOptions = {}): Router {
  const router = Router();
  const configured = options.publicBaseUrl ? new URL(options.publicBaseUrl).origin : undefined;
  const originOf = (req: Request) => configured ?? requestOrigin(req);
  const products = options.products && remembered(options.products, OFFERS_KEPT_MS);
  router.get('/robots.txt', (req, res) => robots(originOf(req), res));
  router.get('/sitemap.xml', (req, res) => sitemap(originOf(req), res));
  for (const page of PUBLIC_PAGES) {
    const file = join(webDir, prerenderedFile(page.path));
    // A build without the prerendered pages (an older one) still serves them, as the shell.
    if (!existsSync(file)) continue;
    router.get(page.path, (req, res, next) => {
      sendPage(file, page, originOf(req), products, res).catch(next);
    });
  }
  // The files themselves, with their placeholder origin, are no address of the site.
  router.use('/prerendered', (_req, _res, next) => next('router'));
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
