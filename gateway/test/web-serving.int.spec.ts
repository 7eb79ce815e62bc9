// How the gateway serves the built web app (ADR 0713): compressed text, cache lifetimes by kind
// of file, the crawler's files, and an event stream left uncompressed. Runs on the real build
// (web/dist, made by `npm test`'s build step before any test).
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createLogger } from '@flatlay/platform';
import { createGatewayApp, listen } from '../src/index.js';
import { compressAnswers } from '../src/web/serve-web-app.js';
import { INDEXED_PAGES, PUBLIC_PAGES } from '../src/web/public-pages.js';

const webDir = fileURLToPath(new URL('../../web/dist', import.meta.url));

describe('the web app as the gateway serves it', () => {
  let base: string;
  let http: Awaited<ReturnType<typeof listen>>;
  let entry: string;

  beforeAll(async () => {
    const app = createGatewayApp({
      logger: createLogger('web-serving-test', 'silent'),
      corsOrigins: [],
      webDir,
      services: [],
    });
    http = await listen(app, '127.0.0.1', 0);
    base = `http://127.0.0.1:${http.port}`;
    // The entry chunk, as index.html names it.
    const html = await (await fetch(`${base}/`)).text();
    entry = html.match(/src="(\/assets\/index-[^"]+\.js)"/)?.[1] ?? '';
    assert.ok(entry, 'index.html names its entry chunk');
  });
  afterAll(async () => {
    await http?.stop();
  });

  it('sends a hashed asset precompressed (brotli, else gzip, else as it is), cached for a year as immutable', async () => {
    const plain = await fetch(`${base}${entry}`, { headers: { 'accept-encoding': 'identity' } });
    const bytes = (await plain.arrayBuffer()).byteLength;
    assert.equal(plain.headers.get('content-encoding'), null);
    for (const [accepted, sent] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ]) {
      const res = await fetch(`${base}${entry}`, { headers: { 'accept-encoding': accepted as string } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-encoding'), sent, accepted);
      assert.match(res.headers.get('content-type') ?? '', /javascript/);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.match(res.headers.get('vary') ?? '', /Accept-Encoding/i);
      // fetch decodes the body: the same script, sent in fewer bytes.
      assert.equal((await res.arrayBuffer()).byteLength, bytes);
      assert.ok(Number(res.headers.get('content-length')) < bytes / 2, `${sent} is less than half the script`);
    }
  });

  it('serves the app page for every public route, revalidated on each visit', async () => {
    for (const path of [...INDEXED_PAGES, '/dashboard']) {
      const res = await fetch(`${base}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/, path);
      assert.equal(res.headers.get('cache-control'), 'no-cache', path);
      assert.match(await res.text(), /<div id="root">/, path);
    }
  });

  it('sends each public page prerendered, with its head and this origin (ADR 0714), and the empty shell elsewhere', async () => {
    for (const page of PUBLIC_PAGES) {
      const res = await fetch(`${base}${page.path}`, { headers: { 'accept-encoding': 'br' } });
      assert.equal(res.headers.get('content-encoding'), 'br', page.path);
      const html = await res.text();
      assert.match(
        html,
        /<div id="root"><template data-part="app"><\/template><div class="app">/,
        `${page.path}: rendered`,
      );
      assert.ok(html.includes(`<title>${page.title.replaceAll('&', '&amp;')}</title>`), `${page.path}: title`);
      assert.ok(html.includes(`<link rel="canonical" href="${base}${page.path}">`), `${page.path}: canonical`);
      assert.ok(html.includes(`<meta property="og:url" content="${base}${page.path}">`), page.path);
      assert.ok(html.includes(`<meta property="og:image" content="${base}/showcase/`), page.path);
      assert.equal(html.includes('content="noindex"'), !page.indexed, `${page.path}: noindex`);
      // Critical CSS inline, the full sheet at the end of <body>, and no inline script for the CSP to refuse.
      assert.match(html, /<style>[^<]*\.site-header\{/, `${page.path}: critical CSS`);
      assert.match(html, /<link rel="stylesheet"[^>]*href="\/assets\/index-[^"]+\.css"><\/body>/, page.path);
      assert.deepEqual(html.match(/<script(?![^>]*\ssrc=)[^>]*>/g), null, `${page.path}: inline script`);
      // The page paints without its script: the entry and its preloads yield the line to it (ADR 0716).
      const scripts = html.match(/<(?:script type="module"|link rel="modulepreload")[^>]*>/g) ?? [];
      assert.ok(scripts.length > 0, page.path);
      for (const tag of scripts) assert.match(tag, /\sfetchpriority="low"/, `${page.path}: ${tag}`);
    }
    // Billing is not running here: the pages go out without their offers rather than not at all.
    assert.ok(!(await (await fetch(`${base}/pricing`)).text()).includes('application/ld+json'));
    const shell = await (await fetch(`${base}/dashboard`)).text();
    assert.match(shell, /<div id="root"><\/div>/);
    // The empty shell paints nothing before its script: that one keeps the browser's priority.
    assert.match(shell, /<script type="module"(?![^>]*fetchpriority)[^>]*>/);
    assert.equal((await fetch(`${base}/prerendered/pricing/index.html`)).status, 404);
  });

  it('names PUBLIC_BASE_URL in the pages and crawler files when it is set, whatever the request came to', async () => {
    const app = createGatewayApp({
      logger: createLogger('web-serving-test', 'silent'),
      corsOrigins: [],
      webDir,
      services: [],
      web: { publicBaseUrl: 'https://flatlay.example.com/' },
    });
    const other = await listen(app, '127.0.0.1', 0);
    try {
      const at = `http://127.0.0.1:${other.port}`;
      const html = await (await fetch(`${at}/faq`)).text();
      assert.ok(html.includes('<link rel="canonical" href="https://flatlay.example.com/faq">'));
      assert.ok(!html.includes(at));
      assert.match(
        await (await fetch(`${at}/robots.txt`)).text(),
        /Sitemap: https:\/\/flatlay\.example\.com\/sitemap\.xml/,
      );
    } finally {
      await other.stop();
    }
  });

  it('leaves the hot path’s small answers out of compression altogether (no Vary: Accept-Encoding)', async () => {
    const health = await fetch(`${base}/healthz`, { headers: { 'accept-encoding': 'br, gzip' } });
    assert.doesNotMatch(health.headers.get('vary') ?? '', /accept-encoding/i);
    assert.equal(health.headers.get('content-encoding'), null);
    // An answer of the same size elsewhere goes through the middleware (which then leaves it as is).
    const sitemap = await fetch(`${base}/sitemap.xml`, { headers: { 'accept-encoding': 'br, gzip' } });
    assert.match(sitemap.headers.get('vary') ?? '', /accept-encoding/i);
  });

  it('compresses a large JSON answer made per request', async () => {
    const res = await fetch(`${base}/api/openapi.json`, { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-encoding'), 'br');
    assert.ok(((await res.json()) as { paths?: object }).paths);
  });

  it('answers robots.txt and sitemap.xml (not the app page), naming every public page and keeping crawlers off the rest', async () => {
    const robots = await fetch(`${base}/robots.txt`);
    assert.match(robots.headers.get('content-type') ?? '', /text\/plain/);
    const rules = await robots.text();
    for (const path of ['/api/', '/auth', '/dashboard', '/admin'])
      assert.ok(rules.includes(`Disallow: ${path}\n`), path);
    assert.ok(rules.includes(`Sitemap: ${base}/sitemap.xml`));
    const sitemap = await fetch(`${base}/sitemap.xml`);
    assert.match(sitemap.headers.get('content-type') ?? '', /application\/xml/);
    const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    assert.deepEqual(
      locs,
      INDEXED_PAGES.map((p) => `${base}${p}`),
    );
  });

  it('the build left a brotli and a gzip copy beside every larger script and style sheet', async () => {
    const files = await readdir(`${webDir}/assets`);
    const texts = files.filter((f) => /\.(js|css)$/.test(f));
    assert.ok(texts.length > 5);
    for (const name of [entry.slice('/assets/'.length)]) {
      assert.ok(files.includes(`${name}.br`), name);
      assert.ok(files.includes(`${name}.gz`), name);
    }
  });
});

describe('compression of answers', () => {
  it('never compresses an event stream (each event must reach the browser when it is written)', async () => {
    const app = express();
    app.use(compressAnswers());
    const big = 'x'.repeat(4096);
    app.get('/stream', (_req, res) => {
      res.setHeader('Content-Type', 'text/event-stream');
      res.flushHeaders();
      res.end(`data: ${big}\n\n`);
    });
    app.get('/text', (_req, res) => {
      res.type('text/plain').send(big);
    });
    const server = await listen(app, '127.0.0.1', 0);
    try {
      const url = `http://127.0.0.1:${server.port}`;
      const stream = await fetch(`${url}/stream`, { headers: { 'accept-encoding': 'br, gzip' } });
      assert.equal(stream.headers.get('content-encoding'), null);
      assert.equal((await stream.text()).length, big.length + 8);
      const text = await fetch(`${url}/text`, { headers: { 'accept-encoding': 'br, gzip' } });
      assert.equal(text.headers.get('content-encoding'), 'br');
    } finally {
      await server.stop();
    }
  });
});
