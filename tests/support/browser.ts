// The browser tests' one support module (tests/web, tests/web-operator): Debian's headless Chromium,
// pages and contexts at the phone and desktop widths, what a page logs as errors, axe-core checks,
// screenshots under reports/, and, for tests on a started gateway rather than the whole product,
// the web app built and served in front of it (same origin, as the product serves it).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS } from './chromium-flags.mjs';

export const repoRoot = resolve(import.meta.dirname, '../..');

/**
 * Builds the web app once per run, so the browser sees this checkout's code, into a folder of its
 * own: web/dist is what the product serves in the other browser and e2e tests running meanwhile,
 * and a build empties it first (a page there would then miss its chunks). Answers the folder.
 */
export function buildWebApp(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'flatlay-web-operator-'));
  // The production build, as the product serves it: vitest runs with NODE_ENV=test, which Vite would
  // pass on, bundling React's development build (and failing the initial-JS budget).
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
    cwd: join(repoRoot, 'web'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (!existsSync(join(outDir, 'index.html'))) throw new Error('the web build wrote no index.html');
  return outDir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/** Serves a built app (any other path is the SPA) and forwards /api and /files to the gateway. */
export async function serveApp(
  gatewayBase: string,
  webDist: string,
): Promise<{ base: string; close: () => Promise<void> }> {
  const gateway = new URL(gatewayBase);
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path.startsWith('/files/') || path === '/healthz') {
      const upstream = httpRequest(
        { host: gateway.hostname, port: gateway.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        res.writeHead(502).end();
      });
      req.pipe(upstream);
      return;
    }
    const file = normalize(join(webDist, decodeURIComponent(path)));
    const inside = file.startsWith(webDist) && extname(file) !== '' && existsSync(file);
    const body = await readFile(inside ? file : join(webDist, 'index.html'));
    res.writeHead(200, { 'Content-Type': TYPES[extname(inside ? file : 'x.html')] ?? 'application/octet-stream' });
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Debian's Chromium with the flags that work in a container (docs: shared INFRA, Browsers). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(executablePath))
    throw new Error(`no Chromium at ${executablePath}: the test infrastructure installs it (npm test)`);
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_FLAGS],
  });
  // Every context, however a test makes it, reports React's hydration failures (ADR 0714): a
  // prerendered page that hydrates to other markup is re-rendered from nothing, silently but for
  // this one message, and the visitor sees the page flash.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => watchHydration(await newContext(...args));
  return browser;
}

/**
 * React's words for a failed hydration: the development build's, and the production build's
 * minified error numbers (418 the markup differs, 419 a part the server could not finish, 421-423
 * and 425 their older and Suspense variants).
 */
const HYDRATION_FAILURE = /hydrat|Minified React error #(418|419|421|422|423|425)\b/i;
const hydrationFailures: string[] = [];

function watchHydration(context: BrowserContext): BrowserContext {
  context.on('console', (m) => {
    if (HYDRATION_FAILURE.test(m.text())) hydrationFailures.push(`${m.text()} (${m.page()?.url() ?? 'no page'})`);
  });
  context.on('weberror', (e) => {
    const message = e.error().message;
    if (HYDRATION_FAILURE.test(message))
      hydrationFailures.push(`uncaught: ${message} (${e.page()?.url() ?? 'no page'})`);
  });
  return context;
}

/** The hydration failures seen since the last call (a journey's afterEach asserts there were none). */
export function takeHydrationFailures(): string[] {
  return hydrationFailures.splice(0);
}

export const VIEWPORTS = { mobile: { width: 375, height: 812 }, desktop: { width: 1440, height: 900 } } as const;

export async function newContext(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
): Promise<BrowserContext> {
  return browser.newContext({ baseURL: url, viewport, acceptDownloads: true });
}

/** A page of its own context at 1440 px, without animations. */
export async function newDesktopPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, reducedMotion: 'reduce' });
  return context.newPage();
}

/** What a page logged as an error (console errors, uncaught exceptions), kept for assertions. */
export function recordErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  return errors;
}

/**
 * Full-page screenshots under reports/<folder>/ (reports/ is kept out of git), for a person to look
 * at: taken on a developer's machine, and in CI only with FLATLAY_SCREENSHOTS=1 (nobody reads CI's,
 * and encoding some fifty full pages costs the run tens of seconds).
 */
export function screenshotsIn(folder: string): (page: Page, name: string) => Promise<string | undefined> {
  const dir = join(repoRoot, 'reports', folder);
  const wanted = process.env.FLATLAY_SCREENSHOTS ? process.env.FLATLAY_SCREENSHOTS === '1' : !process.env.CI;
  return async (page, name) => {
    if (!wanted) return undefined;
    await mkdir(dir, { recursive: true });
    const path = join(dir, `${name}.png`);
    await page.screenshot({ path, fullPage: true });
    return path;
  };
}

const axeSource = () => readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.1 A and AA rules only (axe's best-practice rules left out). */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe-core's serious and critical findings on the page as it is now, one line each
 * (`id (impact): help: targets`); every rule axe has unless `tags` narrows them. axe is injected
 * as an inline script: a page under the product's CSP needs a context with `bypassCSP`.
 */
export async function seriousViolations(page: Page, { tags }: { tags?: string[] } = {}): Promise<string[]> {
  await page.addScriptTag({ content: await axeSource() });
  const found = await page.evaluate(async (only) => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            ctx: unknown,
            o: unknown,
          ) => Promise<{
            violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown }> }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(
      (globalThis as unknown as { document: unknown }).document,
      only ? { runOnly: { type: 'tag', values: only } } : {},
    );
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  }, tags);
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.targets.join(', ')}`);
}
