// Small helpers for driving the built web app in headless Chromium: serve web/dist in front of a
// started gateway (same origin, as the product serves it), open pages at 1440 px, check them
// with axe-core and keep screenshots under reports/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const artifactsDir = join(repoRoot, 'reports', 'web-operator');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Builds the web app once per run, so the browser sees this checkout's code, into a folder of its
 * own: web/dist is what the product serves in the other browser and e2e tests running meanwhile,
 * and a build empties it first (a page there would then miss its chunks). Answers the folder.
 */
export function buildWebApp(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'flatlay-web-operator-'));
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
    cwd: join(repoRoot, 'web'),
    stdio: 'inherit',
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

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

export async function newDesktopPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  return context.newPage();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const axeSource = () => readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** The serious and critical WCAG A/AA violations axe-core finds on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: await axeSource() });
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run: (ctx: unknown, o: unknown) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
