import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import Beasties from 'beasties';
import { build, type Plugin } from 'vite';
import {
  ORIGIN_PLACEHOLDER,
  PUBLIC_PAGES,
  type PublicPage,
  prerenderedFile,
  SHARE_IMAGE,
} from '../../gateway/src/web/public-pages';
import { onCompatWarning, PREACT_COMPAT_ALIASES } from './preact-compat';

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page's own head: title, description, canonical and Open Graph, the origin left for the gateway. */
export function headTags(page: PublicPage): string {
  const url = `${ORIGIN_PLACEHOLDER}${page.path}`;
  const title = escapeAttribute(page.title);
  const description = escapeAttribute(page.description);
  return [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    ...(page.indexed ? [] : ['<meta name="robots" content="noindex" />']),
    `<link rel="canonical" href="${url}" />`,
    '<meta property="og:type" content="website" />',
    '<meta property="og:site_name" content="Flatlay" />',
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta property="og:image" content="${ORIGIN_PLACEHOLDER}${SHARE_IMAGE}" />`,
    '<meta name="twitter:card" content="summary_large_image" />',
  ].join('\n    ');
}

/**
 * The entry script and its module preloads fetched at low priority (ADR 0716). A prerendered page
 * paints from its HTML and inlined CSS; its script only hydrates what is already on screen, so it
 * should not take the slow line's bandwidth from the document, the style sheet and the images. It
 * also keeps Lighthouse's simulation honest: lantern counts every high-priority script that has
 * arrived before the observed first paint as render-blocking unless it finds the script's
 * `EvaluateScript` event, which Chromium's trace has for classic scripts only, never for modules
 * (GoogleChrome/lighthouse#17163): the 88 KB entry was simulated as blocking the first paint (FCP
 * 2.1-2.4 s instead of 0.9 s). The empty shell of the other paths keeps the default priority: it
 * paints nothing until its script has run.
 */
export function withLowPriorityScripts(html: string): string {
  return html.replace(
    /<(script type="module"|link rel="modulepreload")(?![^>]*\sfetchpriority=)/g,
    '<$1 fetchpriority="low"',
  );
}

/** The shell (the client build's index.html) with the page's head and its rendered body. */
export function pageHtml(shell: string, page: PublicPage, body: string): string {
  const withHead = withLowPriorityScripts(shell)
    .replace(/<title>[^<]*<\/title>/, '')
    .replace(/<meta name="description"[^>]*>/, '')
    .replace('</head>', `  ${headTags(page)}\n  </head>`);
  if (!withHead.includes('<div id="root"></div>')) throw new Error('index.html has no empty <div id="root">');
  return withHead.replace('<div id="root"></div>', () => `<div id="root">${body}</div>`);
}

/**
 * After the client build: builds web/src/server-entry.tsx for Node, renders each public page
 * (gateway/src/web/public-pages.ts) at its path, and writes it into the shell as
 * dist/prerendered/<path>/index.html, its critical CSS inlined by beasties and the full style sheet
 * moved to the end of <body> (no inline script or event handler, which the CSP refuses). ADR 0714.
 */
export function prerender(): Plugin {
  let root = '';
  let outDir = '';
  let isSsrBuild = false;
  return {
    name: 'flatlay-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
      isSsrBuild = Boolean(config.build.ssr);
    },
    async closeBundle() {
      if (isSsrBuild) return;
      // Inside web/ (its imports resolve from web/node_modules), one folder per build: the operator
      // journey builds the app beside another build.
      const serverDir = join(root, 'node_modules', '.cache', `flatlay-prerender-${process.pid}-${Date.now()}`);
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        plugins: [react()],
        // The same Preact as the browser's (ADR 0718), bundled with everything that imports React:
        // an external react-router or Radix would load React itself from node_modules.
        resolve: { alias: PREACT_COMPAT_ALIASES },
        ssr: { noExternal: true },
        build: {
          ssr: 'src/server-entry.tsx',
          outDir: serverDir,
          emptyOutDir: true,
          copyPublicDir: false,
          rolldownOptions: { onwarn: onCompatWarning },
        },
      });
      const entry = pathToFileURL(join(serverDir, 'server-entry.js')).href;
      const { renderPage } = (await import(`${entry}?build=${Date.now()}`)) as {
        renderPage: (path: string) => Promise<string>;
      };
      const shell = await readFile(join(outDir, 'index.html'), 'utf8');
      // preload 'body': the full sheet is linked at the end of <body>, so the page paints with the
      // inlined rules first; the other strategies load it through an onload handler or an inline
      // script, which the CSP's script-src 'self' blocks.
      const beasties = new Beasties({ path: outDir, publicPath: '/', preload: 'body', logLevel: 'warn' });
      await rm(join(outDir, 'prerendered'), { recursive: true, force: true });
      for (const page of PUBLIC_PAGES) {
        const html = await beasties.process(pageHtml(shell, page, await renderPage(page.path)));
        // The CSP runs no inline script: a page that needs one would break in the browser, not here.
        if (/<script(?![^>]*\ssrc=)[^>]*>/.test(html)) throw new Error(`${page.path}: an inline <script> in the page`);
        const file = join(outDir, prerenderedFile(page.path));
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, html);
      }
      await rm(serverDir, { recursive: true, force: true });
      this.info?.(`prerendered ${PUBLIC_PAGES.length} public pages into ${join(outDir, 'prerendered')}`);
    },
  };
}
