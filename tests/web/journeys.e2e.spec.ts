// The web app in a real headless Chromium against the product started as `npm start` runs it:
// every route renders without console errors (screenshots at 375 px and 1440 px kept under
// reports/web-e2e), the guards, the 404 page, a guest's try with upload progress, its locked
// preview and its $5 unlock paid on the local checkout page (the full-resolution download), a new
// user's journey through sign-up, enhancement, the live Recent images, main_pack bought from the
// pricing page and an unlock with tokens, and a subscriber who subscribes to Studio and cancels on
// /account. axe-core checks /, /auth, /pricing, /dashboard, /subscribe, /checkout, /account, the
// local checkout page and the cookie banner (nothing of a pixel is requested after Reject; Accept
// from the footer's Cookie settings loads it).
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { linkIn, waitForMail } from '../../services/platform/test/mailbox.js';
import { waitFor } from '../../services/platform/test/support.js';
import { type FakeImageEditApi, startFakeImageEditApi } from '../../services/image/test/support/fake-image-edit-api.js';
import { payOnLocalCheckout } from './support/local-checkout.js';
import {
  launchChromium,
  newContext,
  recordErrors,
  repoRoot,
  seriousViolations,
  takeHydrationFailures,
  VIEWPORTS,
} from '../support/browser.js';
import { type RunningProduct, screenshot, startProduct } from './support/product.js';

const photo = join(repoRoot, 'services/image/test/fixtures/top_floor_01.jpg');

/**
 * Every file under a folder: what a product keeps in its data folder. The product may remove a
 * folder while it is read (an account's images being deleted): a folder gone by the time it is
 * read holds nothing (a recursive readdir fails on it with ENOENT instead).
 */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const files: string[] = [];
  for (const e of entries) {
    if (e.isFile()) files.push(join(dir, e.name));
    else if (e.isDirectory()) files.push(...(await filesUnder(join(dir, e.name))));
  }
  return files;
}

/** The longer side of an image, decoded from its bytes. */
async function longSide(bytes: Buffer | ArrayBuffer): Promise<number> {
  const meta = await sharp(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)).metadata();
  return Math.max(meta.width ?? 0, meta.height ?? 0);
}

/** For a visitor who has been here before: the first visit's intro is not shown. */
const INTRO_SEEN = `localStorage.setItem('flatlay.intro-seen', 'before this test')`;

/**
 * The first visit's intro: it opens over the loaded page (the video asked for after the load event,
 * moving nothing beneath it), plays the showcase video, and Skip closes it for good.
 */
/**
 * A browser of a deployment with a Meta pixel id, as GET /api/config answers one. The pixel's
 * script is a local stand-in (nothing outside is reached) whose requests are recorded, and
 * bypassCSP lets it load where the product's own CSP (no pixel configured) would refuse it. The
 * first visit's intro is marked seen: it would open over the cookie banner these tests look at.
 */
async function pixelContext(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, viewport: VIEWPORTS.desktop, bypassCSP: true });
  await context.addInitScript(INTRO_SEEN);
  const pixelRequests: string[] = [];
  await context.route('**/api/config', (route) =>
    route.fulfill({
      json: { google_client_id: null, support_email: null, pixels: { meta: '1234567890', tiktok: null } },
    }),
  );
  await context.route('https://connect.facebook.net/**', (route) => {
    pixelRequests.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: '' });
  });
  return { context, pixelRequests };
}

async function skipTheIntro(page: Page) {
  const intro = page.getByRole('dialog', { name: 'Flatlay in 15 seconds' });
  await intro.waitFor();
  await screenshotBoth(page, 'intro-first-visit');
  // A resource's timing entry is added once its response has ended: wait for the video's (a CI run
  // read the entries while the 100 KB video was still arriving).
  await page.waitForFunction(() =>
    (globalThis as unknown as { performance: { getEntriesByType: (t: string) => Array<{ name: string }> } }).performance
      .getEntriesByType('resource')
      .some((e) => e.name.endsWith('/intro/intro.webm')),
  );
  const timing = await page.evaluate(() => {
    type Entry = { name: string; startTime: number; loadEventEnd?: number };
    const g = globalThis as unknown as { performance: { getEntriesByType: (t: string) => Entry[] } };
    const video = g.performance.getEntriesByType('resource').find((e) => e.name.endsWith('/intro/intro.webm'));
    return {
      loaded: g.performance.getEntriesByType('navigation')[0]?.loadEventEnd ?? -1,
      video: video?.startTime ?? -1,
    };
  });
  // The video is asked for only once the page has loaded (and the browser is idle): it never
  // takes the bandwidth of the page's own first paint. (Which paint the browser then counts as the
  // largest is the public-page speed issue's to measure, with Lighthouse.)
  assert.ok(
    timing.loaded > 0 && timing.video >= timing.loaded,
    `the video loads after the page: ${JSON.stringify(timing)}`,
  );
  // Over the page, not in it: opening it moves nothing beneath (the home page's own late shifts,
  // measured here at about 0.26 around 1 s, are the public-page speed issue's).
  const position = await intro.evaluate(
    (el) =>
      (globalThis as unknown as { getComputedStyle: (e: unknown) => { position: string } }).getComputedStyle(el)
        .position,
  );
  assert.equal(position, 'fixed');
  await page.getByRole('button', { name: 'Skip' }).click();
  await intro.waitFor({ state: 'detached' });
  assert.ok(
    await page.evaluate(() =>
      (globalThis as unknown as { localStorage: { getItem: (k: string) => string | null } }).localStorage.getItem(
        'flatlay.intro-seen',
      ),
    ),
  );
}

/** A context for axe with this one's session: axe is injected inline, which only bypassCSP allows. */
async function axeContextLike(context: BrowserContext): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: product.url,
    viewport: VIEWPORTS.desktop,
    bypassCSP: true,
    storageState: await context.storageState(),
  });
}

/** An upload through the API with the page's own session, as another device of the same person would make it. */
function generateFromPage(page: Page): Promise<{ status: number; body: { id?: string; image_id?: string } }> {
  return page.evaluate(
    async (bytes) => {
      const form = new FormData();
      form.append('file', new File([new Uint8Array(bytes)], 'top.jpg', { type: 'image/jpeg' }));
      form.append('enhancement_type', 'tops');
      const token = (
        globalThis as unknown as { localStorage: { getItem: (k: string) => string | null } }
      ).localStorage.getItem('auth_token');
      const res = await fetch('/api/images/generate', {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: res.status, body: (await res.json()) as { id?: string; image_id?: string } };
    },
    [...readFileSync(photo)],
  );
}

/** The session's own /api call from the page (its bearer token is in local storage). */
function apiFromPage<B>(page: Page, path: string): Promise<B> {
  return page.evaluate(async (p) => {
    const token = (
      globalThis as unknown as { localStorage: { getItem: (k: string) => string | null } }
    ).localStorage.getItem('auth_token');
    const res = await fetch(p, { headers: { authorization: `Bearer ${token}` } });
    return res.json();
  }, path) as Promise<B>;
}

let product: RunningProduct;
let browser: Browser;
/**
 * The generative provider's stand-in (an OpenAI-compatible image edit API on a local port): the
 * product is set up for it and for the Studio plan, and is off until the operator saves its key.
 */
let imageEditApi: FakeImageEditApi;
/** The session of the subscription journey's Studio subscriber (cancelled at the period end, still active). */
let studioSubscriber: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;

/**
 * Google's side of Google sign-in: a signing key whose certificate a local server answers as
 * Google's certificate endpoint does (the product's GOOGLE_CERTS_URL), and ID tokens signed with it.
 */
const GOOGLE_CLIENT_ID = 'flatlay-journeys.apps.googleusercontent.com';
const googleKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const googleKid = randomUUID();
let googleCerts: Server;
function googleIdToken(claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: 'https://accounts.google.com', aud: GOOGLE_CLIENT_ID, iat: now, exp: now + 600, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: googleKid, typ: 'JWT' })
    .sign(googleKey.privateKey);
}

beforeAll(async () => {
  imageEditApi = await startFakeImageEditApi();
  googleCerts = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ [googleKid]: googleKey.publicKey.export({ type: 'spki', format: 'pem' }) }));
  });
  await new Promise<void>((ok) => googleCerts.listen(0, '127.0.0.1', ok));
  product = await startProduct({
    GENERATIVE_API_URL: imageEditApi.baseUrl,
    GENERATIVE_PLANS: 'studio',
    GOOGLE_CLIENT_ID,
    GOOGLE_CERTS_URL: `http://127.0.0.1:${(googleCerts.address() as { port: number }).port}/oauth2/v1/certs`,
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await imageEditApi?.close();
  googleCerts?.closeAllConnections();
  await new Promise((ok) => googleCerts?.close(ok));
});

async function signUp(page: Page, email: string) {
  await page.goto('/auth?mode=signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  // The post-login redirect leaves /auth; the header then shows the 200 free tokens.
  await page.waitForURL((u) => !u.pathname.startsWith('/auth'));
  await page.getByTitle('Click to buy more tokens').getByText('200', { exact: true }).waitFor();
}

/**
 * Waits until every image in the element has loaded and is laid out at a visible size (its
 * rendered and natural widths both above 0), and answers the rendered widths.
 */
async function visibleImageWidths(page: Page, selector: string): Promise<number[]> {
  const handle = await page.waitForFunction((sel) => {
    type Img = { naturalWidth: number; getBoundingClientRect: () => { width: number } };
    const doc = (globalThis as unknown as { document: { querySelectorAll: (s: string) => ArrayLike<Img> } }).document;
    const images = Array.from(doc.querySelectorAll(`${sel} img`));
    const sizes = images.map((img) => ({ shown: img.getBoundingClientRect().width, natural: img.naturalWidth }));
    return sizes.length > 0 && sizes.every((s) => s.shown > 0 && s.natural > 0) ? sizes.map((s) => s.shown) : null;
  }, selector);
  return (await handle.jsonValue()) as number[];
}

/**
 * Whether the page keeps to the viewport's width (wider means a sideways scroll on a phone): none
 * when it fits, else the first elements that reach past it.
 */
function pastTheViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type El = { tagName: string; className: unknown; getBoundingClientRect: () => { right: number } };
    const doc = (
      globalThis as unknown as {
        document: {
          documentElement: { clientWidth: number; scrollWidth: number };
          querySelectorAll: (s: string) => ArrayLike<El>;
        };
      }
    ).document;
    const width = doc.documentElement.clientWidth;
    // A wide table in its own scrolling box is fine: only the page's own sideways scroll counts.
    if (doc.documentElement.scrollWidth <= width) return [];
    return Array.from(doc.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map(
        (e) => `${e.tagName.toLowerCase()}.${String(e.className)} (${Math.round(e.getBoundingClientRect().right)} px)`,
      );
  });
}

/** Picks the photo, presses Enhance Image and confirms the type chooser's choice. */
async function enhance(page: Page) {
  await page.locator('input[type=file]').first().setInputFiles(photo);
  await page.getByRole('button', { name: 'Enhance Image' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
}

/**
 * The dashboard's enhancement: its chooser card holds the type, so Enhance Image starts at once
 * (no dialog) and says 'Enhancement Started' while the result is made.
 */
async function enhanceOnDashboard(page: Page) {
  await page.locator('input[type=file]').first().setInputFiles(photo);
  await page.getByRole('button', { name: 'Enhance Image' }).click();
  // The toast follows the upload's answer: a ceiling of its own, as for the other server round
  // trips here (the default 30 s was passed once on a loaded machine). A refusal says why.
  const started = page.getByText('Enhancement Started').first();
  const failed = page.getByText('Enhancement Failed').first();
  await started.or(failed).waitFor({ timeout: 60_000 });
  if (await failed.isVisible())
    assert.fail(`the enhancement was refused: ${await failed.locator('xpath=..').textContent()}`);
  assert.equal(await page.getByRole('dialog').count(), 0, 'no type dialog on the dashboard');
}

/** The newest image of the signed-in user as GET /api/images/ answers it. */
async function newestImage(page: Page): Promise<{ id: string; status: string; enhancement_type: string }> {
  const body = await apiFromPage<{ images: Array<{ id: string; status: string; enhancement_type: string }> }>(
    page,
    '/api/images/?page=1',
  );
  return body.images[0]!;
}

/** Saves the page at 375 px and 1440 px under reports/web-e2e as `<name>-375` and `<name>-1440`. */
async function screenshotBoth(page: Page, name: string) {
  for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
    await page.setViewportSize(viewport);
    await screenshot(page, `${name}-${viewport.width}`);
  }
}

describe('the web app in headless Chromium', { timeout: 600_000 }, () => {
  // The public pages arrive prerendered (ADR 0714): no journey may see React give up on hydrating one.
  afterEach(() => {
    assert.deepEqual(takeHydrationFailures(), [], 'hydration failures');
  });

  it('renders every route without console errors at 375 px and 1440 px, keeps /api JSON, and guards the signed-in pages', async () => {
    const routes: Array<[string, string, RegExp]> = [
      ['home', '/', /Studio flat-lays from casual photos/],
      // Google sign-in is configured here (a local stand-in of Google's certificates): the chooser offers it.
      ['auth', '/auth', /Continue with Google/],
      ['auth-signup', '/auth?mode=signup', /Create your account/],
      ['auth-callback', '/auth/callback', /./],
      ['pricing', '/pricing', /100 TOKENS = 1 IMAGE/i],
      ['faq', '/faq', /./],
      ['how-it-works', '/how-it-works', /How it works/i],
      ['privacy', '/privacy', /Privacy/],
      ['terms', '/terms', /never expire/i],
      ['futuristic', '/futuristic', /JPG, PNG, HEIC, up to 10MB/],
      ['tiktok-test', '/tiktok-test', /Tracking test/],
      ['not-found', '/no/such/page', /Page Not Found/],
    ];
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      const context = await newContext(browser, product.url, viewport);
      const page = await context.newPage();
      const errors = recordErrors(page);
      for (const [name, path, expected] of routes) {
        await page.goto(path);
        await page.locator('main').getByText(expected).first().waitFor();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `${name}-${label}`);
      }
      assert.deepEqual(errors, [], `console errors at ${label}`);
      await context.close();
    }

    const context = await newContext(browser, product.url);
    const page = await context.newPage();
    // 404: Go Home leads back to /.
    await page.goto('/nowhere');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await page.waitForURL(`${product.url}/`);
    // Guards: a signed-out visitor is sent to /auth.
    for (const guarded of ['/dashboard', '/checkout?product=main_pack&type=payment']) {
      await page.goto(guarded);
      await page.waitForURL((u) => u.pathname === '/auth');
    }
    await context.close();

    // The SPA answers every other path; /api stays JSON.
    const api = await fetch(`${product.url}/api/nothing-here`);
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /application\/json/);
    const spa = await fetch(`${product.url}/some/client/route`);
    assert.equal(spa.status, 200);
    assert.match(await spa.text(), /<div id="root">/);
    // Of the third parties only Google sign-in is configured: /api/config says so and the CSP allows
    // Google's script and no other origin (with none configured: gateway/src/web-settings.unit.spec.ts).
    const config = await (await fetch(`${product.url}/api/config`)).json();
    assert.deepEqual(config, {
      google_client_id: GOOGLE_CLIENT_ID,
      support_email: null,
      pixels: { meta: null, tiktok: null },
    });
    const csp = spa.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self' https:\/\/accounts\.google\.com\/gsi\/client(;|$)/);
    assert.deepEqual([...new Set(csp.match(/https:\/\/[^/ ;]+/g))], ['https://accounts.google.com']);
  });

  it("sends each public page as HTML (heading, text, canonical, description, Open Graph; /auth noindex; the offers at billing's prices) and hydrates it", async () => {
    const pages: Array<[string, RegExp]> = [
      ['/', /<h1 id="hero-title">Studio flat-lays from casual photos<\/h1>/],
      ['/pricing', /<h2 id="pricing-title">Pricing<\/h2>.*100 TOKENS = 1 IMAGE/s],
      ['/faq', /What does Flatlay do\?/],
      ['/how-it-works', /<h1>How it works<\/h1>.*Why Flatlay/s],
      ['/privacy', /<h1>Privacy Policy<\/h1>.*What we collect/s],
      ['/terms', /<h1>Terms &amp; Conditions<\/h1>/],
      ['/auth', /<h1>Get started with Flatlay<\/h1>/],
    ];
    for (const [path, content] of pages) {
      // As a crawler sees it: no JavaScript, only what the gateway sends.
      const res = await fetch(`${product.url}${path}`);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('cache-control'), 'no-cache', path);
      const html = await res.text();
      assert.match(html, content, path);
      // PUBLIC_BASE_URL is the product's address here (support/product.ts): the canonical names it.
      const url = `${product.url}${path}`;
      assert.ok(html.includes(`<link rel="canonical" href="${url}">`), `${path}: canonical`);
      assert.ok(html.includes(`<meta property="og:url" content="${url}">`), `${path}: og:url`);
      assert.match(html, /<meta name="description" content="[^"]{50,}">/, `${path}: description`);
      for (const tag of ['og:title', 'og:description', 'og:image'])
        assert.match(html, new RegExp(`<meta property="${tag}" content="[^"]+">`), `${path}: ${tag}`);
      assert.equal(html.includes('<meta name="robots" content="noindex">'), path === '/auth', `${path}: noindex`);
      assert.ok(!html.includes('flatlay-origin.invalid'), `${path}: no placeholder origin left`);
    }

    // The pricing page's structured data: the catalogue's prices, as the products answer gives them.
    const products = (await (await fetch(`${product.url}/api/payments/products`)).json()) as {
      token_packs: Array<{ name: string; tokens: number; amount: number }>;
      subscriptions: Array<{
        name: string;
        pricing: Record<'monthly' | 'yearly', { price_id: string | null; amount: number }>;
      }>;
    };
    const pricing = await (await fetch(`${product.url}/pricing`)).text();
    const block = pricing.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)?.[1];
    assert.ok(block, 'the pricing page has JSON-LD');
    const data = JSON.parse(block) as {
      '@type': string;
      offers: Array<{ '@type': string; name: string; price: string; priceCurrency: string }>;
    };
    assert.equal(data['@type'], 'Product');
    const offered = new Map(data.offers.map((o) => [o.name, `${o.price} ${o.priceCurrency}`]));
    const expected = new Map<string, string>();
    for (const pack of products.token_packs)
      expected.set(`${pack.name} token pack: ${pack.tokens} tokens`, `${(pack.amount / 100).toFixed(2)} USD`);
    for (const plan of products.subscriptions)
      for (const period of ['monthly', 'yearly'] as const)
        if (plan.pricing[period].price_id)
          expected.set(`${plan.name} plan, ${period}`, `${(plan.pricing[period].amount / 100).toFixed(2)} USD`);
    assert.ok(expected.size >= 4, 'packs and plans to compare');
    assert.deepEqual(offered, expected);
    // main_pack's price, spelled out: the catalogue's 24.00 USD reaches the page.
    assert.equal(offered.get('Main token pack: 1500 tokens'), '24.00 USD');

    // In the browser each page hydrates: the footer's Cookie settings answers only once React owns
    // the page, and no hydration failure was reported on the way (afterEach).
    const context = await newContext(browser, product.url, VIEWPORTS.mobile);
    const page = await context.newPage();
    const errors = recordErrors(page);
    await page.addInitScript(INTRO_SEEN);
    for (const [path] of pages) {
      await page.goto(path);
      await page.getByRole('button', { name: 'Cookie settings' }).click();
      await page.getByRole('heading', { name: 'Cookies for marketing' }).waitFor();
      assert.deepEqual(takeHydrationFailures(), [], `${path}: hydration`);
    }
    assert.deepEqual(errors, [], 'console errors on the public pages');

    // Signed in, the header's name and balance replace Account after hydration without moving
    // anything: the page records no layout shift on the way.
    await signUp(page, `prerender-${randomUUID()}@example.com`);
    await page.goto('/privacy');
    await page.getByTitle('Click to buy more tokens').getByText('200', { exact: true }).waitFor();
    const shifts = await page.evaluate(() => {
      // What moved, where from and to: a failure says which element to hold in place.
      type Shift = { sources: Array<{ node?: { outerHTML?: string }; previousRect: unknown; currentRect: unknown }> };
      type Observer = {
        observe(options: { type: string; buffered: boolean }): void;
        takeRecords(): Shift[];
        disconnect(): void;
      };
      // The browser's PerformanceObserver (Node's types know no layout-shift entries).
      const { PerformanceObserver: Observing } = globalThis as unknown as {
        PerformanceObserver: new (callback: () => void) => Observer;
      };
      // buffered: the entries recorded since the page began, in the observer's buffer at once.
      const observer = new Observing(() => {});
      observer.observe({ type: 'layout-shift', buffered: true });
      const entries = observer.takeRecords();
      observer.disconnect();
      return entries.map((e) =>
        JSON.stringify(e.sources.map((x) => [x.node?.outerHTML?.slice(0, 80), x.previousRect, x.currentRect])),
      );
    });
    assert.deepEqual(shifts, [], 'layout shifts on /privacy while the session fills in');
    await context.close();
  });

  it('on a phone, / hydrates the sections below the first screen as they come near: the pricing block asks for the catalogue once scrolled to (ADR 0720)', async () => {
    const context = await newContext(browser, product.url, VIEWPORTS.mobile);
    const page = await context.newPage();
    const errors = recordErrors(page);
    await page.addInitScript(INTRO_SEEN);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/payments/products') asked.push(request.url());
    });
    await page.goto('/');
    // Loaded and quiet: the first screen is hydrated, and nothing asked for the catalogue that the
    // pricing block, screens further down, shows once hydrated.
    await page.waitForLoadState('networkidle');
    assert.deepEqual(asked, [], 'the catalogue was asked for before the visitor came near the pricing block');
    await page.locator('#pricing').scrollIntoViewIfNeeded();
    await page.locator('#pricing').getByRole('heading', { name: 'Token packs' }).waitFor();
    assert.equal(asked.length, 1, 'the pricing block asked for the catalogue once');
    assert.deepEqual(errors, [], 'console errors');
    await context.close();
  });

  it("axe-core finds no serious or critical violation on / (with the first visit's intro), /auth and /pricing", async () => {
    // bypassCSP: axe is injected as an inline script, which the product's CSP rightly refuses.
    const context = await browser.newContext({ baseURL: product.url, viewport: VIEWPORTS.desktop, bypassCSP: true });
    const page = await context.newPage();
    for (const [path, ready] of [
      ['/', 'Studio flat-lays from casual photos'],
      ['/auth', 'Continue with Google'],
      ['/pricing', '100 TOKENS = 1 IMAGE'],
    ] as const) {
      await page.goto(path);
      await page.locator('main').getByText(ready).first().waitFor();
      // A first visit to /: axe checks the intro over the page too.
      if (path === '/') await page.getByRole('dialog', { name: 'Flatlay in 15 seconds' }).waitFor();
      await page.waitForLoadState('networkidle');
      assert.deepEqual(await seriousViolations(page), [], `axe on ${path}`);
    }
    // /pricing (signed out, the page left by the loop): each plan card states its token count once,
    // and the Free card's Get Started says a sign-up is required and leads to it.
    for (const plan of ['Lite', 'Studio']) {
      const card = page.locator('article.price-card', { has: page.getByRole('heading', { name: plan, exact: true }) });
      assert.equal(await card.getByText(/\d[\d,]* tokens/).count(), 1, `${plan} states its tokens once`);
    }
    // No generative provider in this product: no card promises advanced prompting (#28 item 7; the
    // cards with one configured are PricingBlock.unit.spec.tsx's).
    const options = (await (await fetch(`${product.url}/api/images/options`)).json()) as {
      advanced_prompting: boolean;
    };
    assert.equal(options.advanced_prompting, false, '/api/images/options');
    assert.equal(await page.getByText('Advanced Prompting Options').count(), 0);
    assert.equal(await page.getByRole('rowheader', { name: 'Advanced prompting' }).count(), 0);
    const free = page.locator('article.price-card', { has: page.getByRole('heading', { name: 'Free', exact: true }) });
    await free.getByRole('link', { name: 'Get Started' }).click();
    await page.getByText('Sign up required').first().waitFor();
    await page.waitForURL((u) => u.pathname === '/auth' && u.searchParams.get('mode') === 'signup');
    // The sign-up form it opens carries the 18+ consent line (ADR 0804).
    await page.getByText(/confirm that you are at least 18 years old/).waitFor();
    await screenshot(page, 'free-card-sign-up-required-1440');
    await context.close();
  });

  it('asks before any marketing pixel loads: after Reject none is requested, after Accept (from Cookie settings) it loads', async () => {
    const { context, pixelRequests } = await pixelContext(browser, product.url);
    const page = await context.newPage();
    const errors = recordErrors(page);
    await page.goto('/');
    const banner = page.getByRole('region', { name: 'Cookies for marketing' });
    await banner.waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'axe on the cookie banner');
    await screenshot(page, 'cookie-banner-1440');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'cookie-banner-375');
    await page.setViewportSize(VIEWPORTS.desktop);

    await banner.getByRole('button', { name: 'Reject' }).click();
    await banner.waitFor({ state: 'detached' });
    // /pricing tracks ViewContent: with the reject it is dropped, and no script is asked for.
    await page.goto('/pricing');
    await page.getByText('100 TOKENS = 1 IMAGE').first().waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await banner.count(), 0, 'the choice is remembered');
    assert.deepEqual(pixelRequests, [], 'no pixel script after Reject');

    await page.getByRole('button', { name: 'Cookie settings' }).click();
    const loaded = page.waitForRequest('https://connect.facebook.net/en_US/fbevents.js');
    await banner.getByRole('button', { name: 'Accept' }).click();
    await loaded;
    await banner.waitFor({ state: 'detached' });
    assert.deepEqual(pixelRequests, ['https://connect.facebook.net/en_US/fbevents.js']);
    const choice = await page.evaluate(() =>
      (globalThis as unknown as { localStorage: { getItem: (k: string) => string | null } }).localStorage.getItem(
        'cookie_consent',
      ),
    );
    assert.equal(choice, 'accepted');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a guest enhances a photo with upload progress, sees the locked preview, pays $5 on the local checkout page and downloads the full image', async () => {
    const context = await newContext(browser, product.url);
    const page = await context.newPage();
    const errors = recordErrors(page);
    await page.goto('/');
    // A first visit: the intro plays over the page once it has loaded, and Skip closes it.
    await skipTheIntro(page);
    // Upload slowly (5 KB/s) so the progress bar is seen moving on a local connection.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 5 * 1024,
    });
    await page.getByPlaceholder('Your email').fill('guest@example.com');
    await enhance(page);
    const bar = page.getByRole('progressbar', { name: 'Upload' });
    await bar.waitFor();
    await page.getByText(/Uploading \d+%/).waitFor();
    const percents = new Set<string>();
    while (await bar.isVisible()) {
      const now = await bar.getAttribute('aria-valuenow').catch(() => null);
      if (now) percents.add(now);
      await page.waitForTimeout(100);
    }
    // Chromium reports upload progress a few times a second: at least one value short of 100 was shown.
    assert.ok(
      [...percents].some((p) => Number(p) > 0 && Number(p) < 100),
      `the bar showed the upload part-way: ${[...percents].join(', ')}`,
    );
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    // The instant engine may finish before a poll shows "AI PROCESSING..." (the preview panel's
    // states have their component tests): the journey waits for the result.
    await page.getByText('Your enhanced image is ready!').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Pay $5 to Unlock' }).waitFor();
    await screenshot(page, 'guest-locked-desktop');
    // What the guest sees before paying is the watermarked preview: at most 512 px.
    const previewPanel = page.getByLabel('Enhancement preview');
    const previewSrc = await previewPanel.locator('img').getAttribute('src');
    const previewBytes = await (await fetch(new URL(previewSrc!, product.url))).arrayBuffer();
    assert.ok((await longSide(previewBytes)) <= 512, 'the locked preview is small');

    // Pay $5 on the product's own checkout page, and come back to the home page.
    await page.getByRole('button', { name: 'Pay $5 to Unlock' }).click();
    const back = await payOnLocalCheckout(page, {
      item: 'Image unlock',
      total: '$5',
      screenshot: 'local-checkout-unlock-desktop',
    });
    assert.equal(back.pathname, '/');
    assert.equal(back.searchParams.get('payment'), 'success');
    const enhancementId = back.searchParams.get('enhancement_id');
    assert.ok(enhancementId, `the return address names the enhancement: ${back}`);

    // The hero unlocks the try (billing confirmed the payment) and shows the result with Download.
    const unlocked = page.locator('section[aria-label="Enhancement preview"][data-state="result"]');
    await unlocked.waitFor();
    await page.waitForURL((u) => u.search === '');
    await screenshot(page, 'guest-unlocked-desktop');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      unlocked.getByRole('button', { name: 'Download' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^enhanced\.(png|jpg|webp)$/);
    const saved = await readFile(await download.path());
    // The download is the full-resolution result, byte for byte what the paid enhancement names.
    const side = await longSide(saved);
    assert.ok(side > 512, `the download is the full-resolution result (${side} px), not the preview`);
    const paid = (await (await fetch(`${product.url}/api/payments/anonymous-enhancement/${enhancementId}`)).json()) as {
      is_paid: boolean;
      processed_url: string;
    };
    assert.equal(paid.is_paid, true);
    const full = Buffer.from(await (await fetch(new URL(paid.processed_url, product.url))).arrayBuffer());
    assert.ok(saved.equals(full), 'the downloaded file is the paid full result');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it("a guest back from paying before the provider's confirmation sees it being confirmed, with a link for later, then the image", async () => {
    // bypassCSP: axe runs on the confirming panel (injected inline).
    const context = await browser.newContext({
      baseURL: product.url,
      viewport: VIEWPORTS.desktop,
      bypassCSP: true,
      acceptDownloads: true,
    });
    await context.addInitScript(INTRO_SEEN);
    const page = await context.newPage();
    const errors = recordErrors(page);
    await page.goto('/');
    await page.getByPlaceholder('Your email').fill('late.webhook@example.com');
    await enhance(page);
    const payButton = page.getByRole('button', { name: 'Pay $5 to Unlock' });
    await payButton.waitFor({ timeout: 60_000 });
    const created = page.waitForRequest((r) => r.url().endsWith('/api/payments/create-anonymous-payment'));
    await payButton.click();
    const successUrl = ((await created).postDataJSON() as { success_url: string }).success_url;
    await page.waitForURL((u) => u.pathname.startsWith('/checkout/local/'));
    const checkoutUrl = page.url();
    // The webhook is held back: the guest comes back to the return address before anyone pays (the
    // local provider confirms the moment Pay is clicked, so Pay is clicked later, elsewhere).
    let unlockCalls = 0;
    const askedAgain = new Promise<void>((ok) =>
      page.on('request', (r) => {
        if (r.url().includes('/api/payments/unlock-anonymous-enhancement/') && ++unlockCalls === 2) ok();
      }),
    );
    await page.goto(successUrl);
    const confirming = page.locator('section[aria-label="Enhancement preview"][data-state="confirming"]');
    await confirming.getByText('Confirming your payment...').waitFor();
    assert.equal(await confirming.getByRole('link').getAttribute('href'), successUrl, 'the link opens it later');
    await page.waitForURL((u) => u.search === '');
    // The server answered "pending" (202) at once; the browser asks again after its back-off.
    await askedAgain;
    assert.equal(await confirming.count(), 1, 'still confirming');
    assert.deepEqual(await seriousViolations(page), [], 'axe on the confirming panel');
    await screenshot(page, 'guest-confirming-1440');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'guest-confirming-375');
    await page.setViewportSize(VIEWPORTS.desktop);

    // The confirmation arrives: Pay is clicked on the same checkout, in another browser.
    const provider = await newContext(browser, product.url);
    const providerPage = await provider.newPage();
    await providerPage.goto(checkoutUrl);
    await payOnLocalCheckout(providerPage, {
      item: 'Image unlock',
      total: '$5',
      screenshot: 'local-checkout-late-unlock-desktop',
    });
    await provider.close();
    const result = page.locator('section[aria-label="Enhancement preview"][data-state="result"]');
    await result.getByRole('button', { name: 'Download' }).waitFor({ timeout: 60_000 });
    await page.getByText('Payment Confirmed').first().waitFor();
    assert.equal(await result.getByRole('link', { name: 'Link to this image' }).getAttribute('href'), successUrl);
    const kept = await page.evaluate(() =>
      (globalThis as unknown as { sessionStorage: { getItem: (k: string) => string | null } }).sessionStorage.getItem(
        'flatlay-paid-guest-try',
      ),
    );
    assert.equal(kept, null, 'the id is forgotten once unlocked');
    await screenshot(page, 'guest-confirmed-1440');
    assert.deepEqual(errors, []);
    await context.close();

    // The link, opened later in another browser, shows the paid result.
    const later = await newContext(browser, product.url);
    const laterPage = await later.newPage();
    await laterPage.goto(successUrl);
    await laterPage
      .locator('section[aria-label="Enhancement preview"][data-state="result"]')
      .getByRole('button', { name: 'Download' })
      .waitFor();
    await later.close();
  });

  it('a guest unlocks their try with tokens: the try waits while they sign up, then is in their gallery for 100 tokens', async () => {
    // bypassCSP: axe runs on the locked preview (injected inline).
    const context = await browser.newContext({ baseURL: product.url, viewport: VIEWPORTS.desktop, bypassCSP: true });
    await context.addInitScript(INTRO_SEEN);
    const page = await context.newPage();
    const errors = recordErrors(page);
    const email = `claimer.${Date.now()}@example.com`;
    await page.goto('/');
    await page.getByPlaceholder('Your email').fill(email);
    await enhance(page);
    const withTokens = page.getByRole('button', { name: 'Unlock with 100 tokens' });
    await withTokens.waitFor({ timeout: 60_000 });
    assert.deepEqual(await seriousViolations(page), [], 'axe on the locked preview');
    await screenshot(page, 'guest-locked-1440');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'guest-locked-375');
    await page.setViewportSize(VIEWPORTS.desktop);
    await withTokens.click();
    await page.waitForURL((u) => u.pathname === '/auth');
    const waiting = await page.evaluate(() =>
      (globalThis as unknown as { localStorage: { getItem: (k: string) => string | null } }).localStorage.getItem(
        'pending_token_unlock_request',
      ),
    );
    assert.ok(waiting, 'the try waits under pending_token_unlock_request');
    // Signing up unlocks it (not the signUp helper: the balance it waits for is spent at once).
    await page.goto('/auth?mode=signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a good long password');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Image Unlocked').first().waitFor();
    await page.goto('/dashboard');
    await page.locator('section[aria-labelledby="recent-title"] li[data-status="completed"]').waitFor();
    await page.getByTitle('Click to buy more tokens').getByText('100', { exact: true }).waitFor();
    const left = await page.evaluate(() =>
      (globalThis as unknown as { localStorage: { getItem: (k: string) => string | null } }).localStorage.getItem(
        'pending_token_unlock_request',
      ),
    );
    assert.equal(left, null, 'the waiting try is forgotten once unlocked');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a new user signs up with 200 tokens, enhances, sees the result live in Recent images, buys main_pack on the local checkout page, and unlocks a locked image with tokens', async () => {
    const context = await newContext(browser, product.url);
    const page = await context.newPage();
    const errors = recordErrors(page);
    const email = `shopper.${Date.now()}@example.com`;
    await signUp(page, email);

    await page.goto('/dashboard');
    await page.getByRole('heading', { name: `Welcome back, ${email.split('@')[0]}!` }).waitFor();
    // The live stream is open (its `ready` event arrived): no polling.
    const recent = page.locator('section[aria-labelledby="recent-title"]');
    await page.locator('section[data-live="live"]').waitFor();
    // Not a subscriber: the chooser offers main types only, and 'Unlock More Features' leads to /pricing.
    const chooser = page.locator('section[aria-labelledby="type-chooser-title"]');
    await chooser.getByRole('heading', { name: 'Unlock More Features' }).waitFor();
    assert.equal(await chooser.getByRole('link', { name: 'View Plans' }).getAttribute('href'), '/pricing');
    assert.equal(await chooser.getByRole('group', { name: 'Sub-type' }).count(), 0);
    await screenshotBoth(page, 'dashboard-type-chooser-free');
    await enhanceOnDashboard(page);
    // The result (the instant engine may finish before "AI PROCESSING..." is ever drawn): the preview's Download, and the same image completed in Recent images.
    const previewDownload = page.getByLabel('Enhancement preview').getByRole('button', { name: 'Download' });
    await previewDownload.waitFor({ timeout: 60_000 });
    await recent.locator('li[data-status="completed"]').first().waitFor();
    // The result is seen, not only downloadable: its before/after images are laid out at a visible
    // size at both widths (they once loaded but were laid out 0 px wide).
    for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
      await page.setViewportSize(viewport);
      const widths = await visibleImageWidths(page, 'section[aria-label="Enhancement preview"][data-state="result"]');
      assert.ok(
        widths.every((w) => w >= viewport.width / 4),
        `the result is shown at ${viewport.width} px: ${widths}`,
      );
      // The greeting names the user by their long e-mail local part: it wraps, the page keeps its width.
      assert.deepEqual(await pastTheViewport(page), [], `the dashboard fits ${viewport.width} px`);
      // The comparison's slider and the Download button do not cover each other (the button once hid the slider's end).
      const slider = await page.getByLabel('Enhancement preview').getByRole('slider').boundingBox();
      const button = await previewDownload.boundingBox();
      assert.ok(slider!.y + slider!.height <= button!.y, `the slider is above Download at ${viewport.width} px`);
      await screenshot(page, `dashboard-result-${viewport.width}`);
    }
    const [download] = await Promise.all([page.waitForEvent('download'), previewDownload.click()]);
    assert.match(download.suggestedFilename(), /^enhanced\.(png|jpg|webp)$/);
    await page.getByTitle('Click to buy more tokens').getByText('100', { exact: true }).waitFor();

    // Below 100 tokens the form refuses at once, with the balance in the text.
    assert.equal(await product.adjustTokens(email, 100, 'deduct'), 0);
    await page.reload();
    await page.getByRole('heading', { name: /Welcome back/ }).waitFor();
    await page.locator('section[data-live="live"]').waitFor();
    await page.locator('input[type=file]').first().setInputFiles(photo);
    await page.getByRole('button', { name: 'Enhance Image' }).click();
    await page.getByText('Insufficient Tokens').first().waitFor();
    await page.getByText('You have 0 tokens').first().waitFor();
    assert.equal(await page.getByRole('dialog').count(), 0, 'no type chooser below 100 tokens');

    // An upload made elsewhere (the API, as another device would) with no tokens is made locked;
    // it reaches the open dashboard through the live stream, without a reload.
    const made = await generateFromPage(page);
    assert.ok(made.status === 200 || made.status === 201 || made.status === 202, JSON.stringify(made));
    const locked = recent.locator('li[data-status="locked"]');
    await locked.waitFor({ timeout: 60_000 });
    await locked.getByText('Need 100 tokens to unlock').waitFor();
    await locked.getByRole('button', { name: 'Unlock for $5' }).waitFor();
    await screenshot(page, 'dashboard-locked-desktop');

    // Buy main_pack: the token chip leads to the pricing page, Buy Now to the local checkout page.
    await page.getByTitle('Click to buy more tokens').click();
    await page.waitForURL((u) => u.pathname === '/pricing');
    const mainPack = page.locator('article.price-card', {
      has: page.getByRole('heading', { name: 'Main', exact: true }),
    });
    await mainPack.getByText('Most Popular').waitFor();
    await mainPack.getByText('1,500 tokens').waitFor();
    await screenshot(page, 'pricing-signed-in-desktop');
    await mainPack.getByRole('button', { name: 'Buy Now' }).click();
    const back = await payOnLocalCheckout(page, {
      item: 'Main pack',
      total: '$24',
      screenshot: 'local-checkout-pack-desktop',
    });
    assert.equal(`${back.pathname}${back.search}`, '/dashboard?payment=success');
    // Back on the dashboard the 1,500 tokens arrive (the ledger credits after the redirect), in the
    // header, the balance card and the history, and the locked image offers its token unlock.
    await page.getByText('Payment Successful').first().waitFor();
    await page.getByTitle('Click to buy more tokens').getByText('1,500', { exact: true }).waitFor();
    await page.locator('section[aria-labelledby="balance-title"]').getByText('1,500', { exact: true }).waitFor();
    await page.locator('section[aria-labelledby="history-title"]').getByText('+1500').waitFor();
    await screenshot(page, 'dashboard-after-purchase-desktop');
    await locked.getByRole('button', { name: 'Unlock with 100 tokens' }).click();
    await recent.locator('li[data-status="locked"]').waitFor({ state: 'detached' });
    assert.equal(await recent.locator('li[data-status="completed"]').count(), 2);
    await page.getByTitle('Click to buy more tokens').getByText('1,400', { exact: true }).waitFor();
    const [tileDownload] = await Promise.all([
      page.waitForEvent('download'),
      recent.locator('li[data-status="completed"]').first().getByRole('button', { name: 'Download' }).click(),
    ]);
    assert.match(tileDownload.suggestedFilename(), /^enhanced-[\w-]+\.png$/);
    await screenshot(page, 'dashboard-desktop');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'dashboard-mobile');
    assert.deepEqual(errors, []);
    await context.close();

    // axe on the dashboard, signed in (a fresh context that may inject axe past the CSP).
    const axeContext = await browser.newContext({ baseURL: product.url, viewport: VIEWPORTS.desktop, bypassCSP: true });
    const axePage = await axeContext.newPage();
    await signUp(axePage, `axe.${Date.now()}@example.com`);
    await axePage.goto('/dashboard');
    await axePage.getByRole('heading', { name: /Welcome back/ }).waitFor();
    await axePage.waitForLoadState('networkidle');
    assert.deepEqual(await seriousViolations(axePage), [], 'axe on /dashboard');
    await axeContext.close();
  });

  it('a signed-in user uploads a batch of 3 photos: a progress bar per file, then 3 results, one charge each', async () => {
    const context = await newContext(browser, product.url);
    const page = await context.newPage();
    const errors = recordErrors(page);
    const email = `batch.${Date.now()}@example.com`;
    await signUp(page, email);
    assert.equal(await product.adjustTokens(email, 100, 'add'), 300);
    await page.goto('/dashboard');
    const batch = page.locator('section[aria-labelledby="batch-title"]');
    await batch.getByText('Up to 20 photos at once').waitFor();
    const photos = ['top_floor_01.jpg', 'headwear_01.jpg', 'shoes_pair_02.jpg'].map((f) =>
      join(repoRoot, 'services/image/test/fixtures', f),
    );
    await batch.getByLabel('Photos for a batch').setInputFiles(photos);
    // Each file has its own bar, full once its bytes are sent, and its own result as it completes.
    const rows = batch.locator('li.batch__row');
    for (const name of ['top_floor_01.jpg', 'headwear_01.jpg', 'shoes_pair_02.jpg']) {
      await batch.getByRole('img', { name: `Result of ${name}` }).waitFor({ timeout: 60_000 });
      assert.equal(await batch.getByRole('progressbar', { name: `Upload of ${name}` }).getAttribute('value'), '100');
    }
    assert.equal(await rows.count(), 3);
    assert.equal(await batch.locator('li[data-phase="done"]').count(), 3);
    // One charge per photo, and the three are in Recent images.
    await page.getByTitle('Click to buy more tokens').getByText('0', { exact: true }).waitFor();
    await page.locator('section[aria-labelledby="recent-title"] li[data-status="completed"]').nth(2).waitFor();
    for (const viewport of [VIEWPORTS.mobile, VIEWPORTS.desktop]) {
      await page.setViewportSize(viewport);
      assert.deepEqual(await pastTheViewport(page), [], `the batch fits ${viewport.width} px`);
      await screenshot(page, `dashboard-batch-${viewport.width}`);
    }

    // With no tokens left the server still takes the batch and makes the photos locked: the rows say so.
    await batch.getByLabel('Photos for a batch').setInputFiles(photos.slice(0, 1));
    await batch
      .locator('li[data-phase="locked"]')
      .getByText('Locked: unlock it in Recent images')
      .waitFor({ timeout: 60_000 });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a subscriber subscribes to Studio through /subscribe and the local checkout page, then cancels on /account and sees Cancelling with the end date', async () => {
    const context = await newContext(browser, product.url);
    const page = await context.newPage();
    const errors = recordErrors(page);
    await signUp(page, `subscriber.${Date.now()}@example.com`);

    // No plan yet: /account (the header's account menu leads there) offers View Plans, which leads to /subscribe.
    await page
      .getByRole('banner')
      .getByRole('link', { name: /My Account/ })
      .click();
    await page.waitForURL((u) => u.pathname === '/account');
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    await page.getByText('You have no subscription').waitFor();
    await page.getByRole('link', { name: 'View Plans' }).click();
    await page.waitForURL((u) => u.pathname === '/subscribe');
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    await page.getByRole('radio', { name: /^Studio/ }).click();
    const summary = page.getByRole('complementary', { name: 'Order Summary' });
    await summary.getByText('4,000', { exact: true }).waitFor();
    await summary.getByText('$40', { exact: true }).waitFor();
    await screenshot(page, 'subscribe-desktop');
    await summary.getByRole('button', { name: 'Subscribe', exact: true }).click();
    const back = await payOnLocalCheckout(page, {
      item: 'Studio (monthly)',
      total: '$40 / month',
      screenshot: 'local-checkout-subscription-desktop',
    });
    assert.equal(`${back.pathname}${back.search}`, '/dashboard?payment=success');
    // The plan's month of tokens arrives on the dashboard: 200 + 4,000.
    await page.getByTitle('Click to buy more tokens').getByText('4,200', { exact: true }).waitFor();

    // An active subscriber chooses a sub-type on the dashboard; the generation is stored with it.
    await page.goto('/dashboard');
    const chooser = page.locator('section[aria-labelledby="type-chooser-title"]');
    await chooser.getByRole('radio', { name: 'Shoes' }).check();
    await chooser.getByRole('radio', { name: 'Side view' }).check();
    assert.equal(await chooser.getByText('Unlock More Features').count(), 0);
    await screenshotBoth(page, 'dashboard-type-chooser-subscriber');
    await enhanceOnDashboard(page);
    await page.getByLabel('Enhancement preview').getByRole('button', { name: 'Download' }).waitFor({ timeout: 60_000 });
    const newest = await newestImage(page);
    assert.deepEqual([newest.status, newest.enhancement_type], ['completed', 'side_view']);
    // The dashboard polls once a second, 30 times, then sends the person to the gallery: on a page of
    // its own the status is held at processing, and the page's clock is run on rather than waited for.
    const slow = await context.newPage();
    await slow.clock.install();
    await slow.route('**/api/images/status/*', (r) =>
      r.fulfill({ json: { status: 'processing', processed_url: null, is_locked: false } }),
    );
    await slow.goto('/dashboard');
    await slow.locator('input[type=file]').first().setInputFiles(photo);
    await slow.getByRole('button', { name: 'Enhance Image' }).click();
    await slow.getByText('Enhancement Started').first().waitFor();
    const tooLong = slow.getByText('Processing took too long. Please check your gallery for the result.').first();
    for (let second = 0; second < 120 && !(await tooLong.isVisible()); second++) await slow.clock.runFor(1000);
    await tooLong.waitFor();
    await slow.close();

    // /account: the active plan with its next billing date, then Cancel Subscription, confirmed.
    const subscription = await apiFromPage<{ status: string; cancelAtPeriodEnd: boolean; currentPeriodEnd: number }>(
      page,
      '/api/subscription/status',
    );
    assert.deepEqual([subscription.status, subscription.cancelAtPeriodEnd], ['active', false]);
    const endDate = new Date(subscription.currentPeriodEnd * 1000).toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    // On a phone the header's account icon leads to /account.
    await page.setViewportSize(VIEWPORTS.mobile);
    await page.getByRole('banner').getByRole('link', { name: 'My Account' }).click();
    await page.waitForURL((u) => u.pathname === '/account');
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    assert.deepEqual(await pastTheViewport(page), [], 'the long e-mail address wraps on /account');
    await screenshot(page, 'account-from-header-375');
    await page.setViewportSize(VIEWPORTS.desktop);
    const card = page.locator('article[aria-labelledby="subscription-title"]');
    await card.getByText('Active', { exact: true }).waitFor();
    await card.getByText('Next Billing Date').waitFor();
    await card.getByText(endDate, { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Manage Billing' }).waitFor();
    await screenshot(page, 'account-active-desktop');
    await card.getByRole('button', { name: 'Cancel Subscription' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel Subscription?' });
    await confirm.getByText(`Your plan stays active until ${endDate}`).waitFor();
    await screenshot(page, 'account-cancel-confirm-desktop');
    await confirm.getByRole('button', { name: 'Cancel Subscription' }).click();
    await page.getByText('Subscription Cancelled').first().waitFor();
    await card.getByText('Cancelling', { exact: true }).waitFor();
    await card.getByText('Ends On').waitFor();
    await card.getByText(endDate, { exact: true }).waitFor();
    assert.equal(await confirm.count(), 0, 'the dialog closed');
    assert.equal(await card.getByRole('button', { name: 'Cancel Subscription' }).count(), 0, 'no second cancel');
    await screenshot(page, 'account-cancelling-desktop');
    // The server agrees: cancelled at the period end, still active until then.
    const after = await apiFromPage<{ status: string; cancelAtPeriodEnd: boolean }>(page, '/api/subscription/status');
    assert.deepEqual([after.status, after.cancelAtPeriodEnd], ['active', true]);
    assert.deepEqual(errors, []);

    // axe on /account (cancelling), /subscribe, the purchase page and the local checkout page it leads to.
    const axeContext = await axeContextLike(context);
    studioSubscriber = await context.storageState();
    await context.close();
    const axePage = await axeContext.newPage();
    await axePage.goto('/account');
    await axePage.getByText('Cancelling', { exact: true }).waitFor();
    await axePage.waitForLoadState('networkidle');
    assert.deepEqual(await seriousViolations(axePage), [], 'axe on /account');
    await axePage.goto('/subscribe');
    await axePage.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    await axePage.waitForLoadState('networkidle');
    assert.deepEqual(await seriousViolations(axePage), [], 'axe on /subscribe');
    await axePage.goto('/checkout?product=main_pack&type=payment');
    await axePage.getByRole('heading', { name: 'Complete your purchase' }).waitFor();
    assert.equal(
      await axePage.getByRole('radio', { name: /^Main/ }).isChecked(),
      true,
      'the product in the link is chosen',
    );
    await axePage.waitForLoadState('networkidle');
    assert.deepEqual(await seriousViolations(axePage), [], 'axe on /checkout');
    await screenshot(axePage, 'checkout-desktop');
    await axePage.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await axePage.waitForURL((u) => u.pathname.startsWith('/checkout/local/'));
    await axePage.getByRole('heading', { name: 'Your order' }).waitFor();
    await axePage.getByText('Main pack', { exact: true }).waitFor();
    assert.deepEqual(await seriousViolations(axePage), [], 'axe on the local checkout page');
    await axeContext.close();
  });

  it('a new user verifies the address from the e-mail, forgets the password and resets it (the other session ends), then changes the e-mail address and the password on /account', async () => {
    const email = `care.${Date.now().toString(36)}@example.com`;
    const first = await newContext(browser, product.url, VIEWPORTS.desktop);
    await first.addInitScript(INTRO_SEEN);
    const device = await first.newPage();
    await signUp(device, email);
    await device.goto('/account');
    const notice = device.getByTestId('verify-email-notice');
    await notice.getByText(email).waitFor();

    // The welcome e-mail's link, opened in the browser, verifies the address.
    const [welcome] = await waitForMail(email, 'Confirm your e-mail address');
    await device.goto(linkIn(welcome!, '/auth/verify-email').url);
    await device.getByRole('heading', { name: 'E-mail address verified' }).waitFor();
    assert.equal(new URL(device.url()).hash, '', 'the token leaves the address bar');
    await device.getByRole('link', { name: 'Go to my account' }).click();
    await device.getByRole('heading', { name: 'Sign-in and Security' }).waitFor();
    // No notice once verified (the page fetched the profile again).
    await notice.waitFor({ state: 'detached' });

    // Elsewhere (another browser, axe injected there): "Forgot password?" and the reset link.
    const other = await browser.newContext({ baseURL: product.url, viewport: VIEWPORTS.desktop, bypassCSP: true });
    await other.addInitScript(INTRO_SEEN);
    const page = await other.newPage();
    await page.goto('/auth?mode=signin');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'axe on /auth/forgot-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(/If an account uses this address, we have sent it a link/).waitFor();
    const [reset] = await waitForMail(email, 'Reset your Flatlay password');
    await page.goto(linkIn(reset!, '/auth/reset-password').url);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'axe on /auth/reset-password');
    await page.getByLabel('New password', { exact: true }).fill('a reset password');
    await page.getByLabel('Repeat the new password').fill('a reset password');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();

    // The first browser's session ended with the reset: its next call signs it out.
    await device.goto('/account');
    await device.waitForURL((u) => u.pathname === '/auth');

    // Signed in with the new password: a new address, confirmed from the new mailbox.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a reset password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/auth'));
    await page.goto('/account');
    const security = page.getByRole('article', { name: 'Sign-in and Security' });
    await security.waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(await seriousViolations(page), [], 'axe on /account with its security card');
    const moved = `moved.${Date.now().toString(36)}@example.com`;
    await security.getByLabel('New e-mail address').fill(moved);
    await security.getByLabel('Your password').fill('a reset password');
    await security.getByRole('button', { name: 'Send confirmation link' }).click();
    await security.getByText(`We have sent a link to ${moved}.`, { exact: false }).waitFor();
    const [confirm] = await waitForMail(moved, 'Confirm your new e-mail address');
    await page.goto(linkIn(confirm!, '/auth/confirm-email').url);
    await page.getByText(`Your account now uses ${moved}.`).waitFor();
    const [told] = await waitForMail(email, 'Your Flatlay e-mail address was changed');
    assert.ok(told!.text.includes(moved));
    await page.getByRole('link', { name: 'Go to my account' }).click();
    await page.getByRole('article', { name: 'Profile' }).getByText(moved).waitFor();

    // A new password from /account: this browser stays signed in.
    await security.getByLabel('Current password').fill('a reset password');
    await security.getByLabel('New password').fill('the final password');
    await security.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('You have been signed out on every other device.').first().waitFor();
    await page.reload();
    await page.getByRole('article', { name: 'Profile' }).getByText(moved).waitFor();
    await screenshot(page, 'account-security-1440');

    // An image of theirs, then the account deleted from /account: sign-in refused, files gone.
    const before = new Set(await filesUnder(product.dataDir));
    const made = (await generateFromPage(page)).body;
    const imageId = made.id ?? made.image_id ?? '';
    assert.ok(imageId, JSON.stringify(made));
    await page.waitForFunction(async (id) => {
      const token = (
        globalThis as unknown as { localStorage: { getItem: (k: string) => string | null } }
      ).localStorage.getItem('auth_token');
      const res = await fetch(`/api/images/status/${id}`, { headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as { status: string }).status === 'completed';
    }, imageId);
    // Their data exported from /account (issue 29): the e-mailed link serves the archive, no sign-in needed.
    const exportCard = page.getByRole('article', { name: 'Export my data' });
    await exportCard.getByRole('button', { name: 'Export my data' }).click();
    await exportCard.getByText(/We are putting your data together/).waitFor();
    assert.deepEqual(await seriousViolations(page), [], 'axe on /account with its export card');
    const [exportMail] = await waitForMail(moved, 'Your Flatlay data export is ready');
    const exportLink = (exportMail!.text.match(/https?:\/\/[^\s<>"]+/g) ?? [])
      .map((u) => new URL(u))
      .find((u) => u.pathname.startsWith('/files/exports/'));
    assert.ok(exportLink, exportMail!.text);
    const archive = (await (await fetch(`${product.url}${exportLink.pathname}${exportLink.search}`)).json()) as {
      profile: { email: string };
      tokens: { history: Array<{ amount: number }> };
      images: Array<{ id: string; original_url: string }>;
    };
    assert.equal(archive.profile.email, moved);
    assert.equal(archive.tokens.history[0]?.amount, 200, 'the sign-up grant, first in the history');
    assert.deepEqual(
      archive.images.map((i) => i.id),
      [imageId],
    );
    const fileLink = new URL(archive.images[0]!.original_url);
    assert.equal(fileLink.origin, exportLink.origin, 'a whole address on the site the e-mail names');
    assert.equal((await fetch(`${product.url}${fileLink.pathname}${fileLink.search}`)).status, 200);
    const theirs = (await filesUnder(product.dataDir)).filter((f) => !before.has(f));
    assert.ok(theirs.length >= 2, `the original and the result are stored: ${theirs.join(', ')}`);
    const danger = page.getByRole('article', { name: 'Delete Account' });
    await danger.getByLabel('Your password').fill('the final password');
    await danger.getByRole('button', { name: 'Delete my account' }).click();
    await danger.getByText('Type DELETE to confirm that your account should be deleted').waitFor();
    await danger.getByLabel('Type DELETE to confirm').fill('DELETE');
    await danger.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByText('Your account has been deleted.').first().waitFor();
    await waitForMail(moved, 'Your Flatlay account was deleted');
    const signIn = await fetch(`${product.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: moved, password: 'the final password' }),
    });
    assert.equal(signIn.status, 401, 'sign-in is refused once the account is deleted');
    await waitFor(
      async () => {
        const left = new Set(await filesUnder(product.dataDir));
        return theirs.every((f) => !left.has(f));
      },
      "the deleted user's files removed from storage",
      60_000,
    );
    await other.close();
    await first.close();
  });
  it('the Purchase pixel fires with the amount charged only once the visitor accepted: a guest pays $5 before answering the banner (nothing), accepts, then pays $5 again (Purchase, 5 USD)', async () => {
    // The pixel's stand-in script leaves the page's fbq queue as it is: the events the app sent are read there.
    const { context, pixelRequests } = await pixelContext(browser, product.url);
    const page = await context.newPage();
    const errors = recordErrors(page);
    const fbqCalls = () =>
      page.evaluate(() => (globalThis as unknown as { fbq?: { queue?: unknown[][] } }).fbq?.queue ?? null) as Promise<
        unknown[][] | null
      >;
    const banner = page.getByRole('region', { name: 'Cookies for marketing' });
    /** A guest's try on /, paid on the local checkout page, back to the unlocked result. */
    const paidGuestTry = async (email: string) => {
      await page.goto('/');
      await page.getByPlaceholder('Your email').fill(email);
      await enhance(page);
      await page.getByRole('button', { name: 'Pay $5 to Unlock' }).click({ timeout: 60_000 });
      await payOnLocalCheckout(page, { item: 'Image unlock', total: '$5', screenshot: 'local-checkout-pixel-unlock' });
      await page.locator('section[aria-label="Enhancement preview"][data-state="result"]').waitFor();
    };

    // Before any answer: the paid unlock sends nothing, and nothing of the pixel is asked for.
    await paidGuestTry('pixel.before@example.com');
    await banner.waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(pixelRequests, [], 'no pixel script before consent');
    assert.equal(await fbqCalls(), null, 'no fbq before consent');

    // Accepted: the pixel loads with its page view; the earlier purchase was dropped, not queued.
    await banner.getByRole('button', { name: 'Accept' }).click();
    await page.waitForFunction(() => (globalThis as unknown as { fbq?: unknown }).fbq !== undefined);
    assert.deepEqual(await fbqCalls(), [
      ['init', '1234567890'],
      ['track', 'PageView'],
    ]);

    // The next paid unlock: Purchase with the unlock's price, once.
    await paidGuestTry('pixel.after@example.com');
    await page.waitForFunction(() =>
      ((globalThis as unknown as { fbq?: { queue?: unknown[][] } }).fbq?.queue ?? []).some((c) => c[1] === 'Purchase'),
    );
    const purchases = (await fbqCalls())!.filter((c) => c[1] === 'Purchase');
    assert.deepEqual(purchases, [
      ['track', 'Purchase', { value: 5, currency: 'USD', content_name: 'anonymous_unlock' }],
    ]);
    // The script is asked for on each page load after the accept (three here), and nothing else of a pixel.
    assert.deepEqual([...new Set(pixelRequests)], ['https://connect.facebook.net/en_US/fbevents.js']);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it("advanced prompting: once the operator saves the provider's key, the plan cards promise it and a subscriber's instruction reaches the provider with the type's prompt", async () => {
    assert.ok(studioSubscriber, 'the Studio subscriber of the subscription journey');
    const promise = 'Advanced Prompting Options';
    const options = async () =>
      (await (await fetch(`${product.url}/api/images/options`)).json()) as { advanced_prompting: boolean };
    const context = await browser.newContext({
      baseURL: product.url,
      viewport: VIEWPORTS.desktop,
      storageState: studioSubscriber,
    });
    await context.addInitScript(INTRO_SEEN);
    const page = await context.newPage();
    const errors = recordErrors(page);
    // No key yet: no provider, so no card promises it.
    assert.equal((await options()).advanced_prompting, false);
    await page.goto('/pricing');
    await page.getByText('100 TOKENS = 1 IMAGE').first().waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByText(promise).count(), 0, 'no card promises advanced prompting');

    // The operator saves the provider's key on the settings API; the image service takes it for the next job.
    const saved = await product.asAdmin('/settings/keys', { openai_api_key: 'sk-journeys-stand-in' });
    assert.equal(saved.status, 200, await saved.text());
    await waitFor(async () => (await options()).advanced_prompting, 'the image service has the key');
    await page.goto('/pricing');
    await page.getByText(promise).first().waitFor();

    // The subscriber (Studio, a plan the provider serves) adds an instruction and enhances.
    await page.goto('/dashboard');
    const field = page.getByLabel('Advanced prompting (optional)');
    await field.fill('keep the logo facing up');
    await page.getByText('23/300 characters').waitFor();
    await screenshotBoth(page, 'dashboard-advanced-prompting');
    const before = imageEditApi.seen.length;
    await page.locator('input[type=file]').first().setInputFiles(photo);
    await page.getByRole('button', { name: 'Enhance Image' }).click();
    await page.getByLabel('Enhancement preview').getByRole('button', { name: 'Download' }).waitFor({ timeout: 60_000 });
    assert.equal(imageEditApi.seen.length, before + 1, 'one call to the provider');
    const call = imageEditApi.seen.at(-1)!;
    assert.equal(call.authorization, 'Bearer sk-journeys-stand-in');
    assert.ok(
      call.prompt.endsWith("The customer's own instruction for this photo: keep the logo facing up"),
      call.prompt,
    );
    // The result shown is the provider's (its answer is pure red), not the local engine's.
    assert.equal((await newestImage(page)).status, 'completed');
    const resultSrc = await page
      .getByLabel('Enhancement preview')
      .locator('img.before-after__after')
      .getAttribute('src');
    const resultBytes = await page.evaluate(
      async (src) => [...new Uint8Array(await (await fetch(src)).arrayBuffer())],
      resultSrc!,
    );
    const [red, green] = (await sharp(Buffer.from(resultBytes)).stats()).channels.map((c) => Math.round(c.mean));
    assert.ok(red! > 200 && green! < 50, `the red of the stand-in's answer (mean red ${red}, green ${green})`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a sign-up through Google (its script and certificates stood in for) is tracked as CompleteRegistration once marketing cookies are accepted', async () => {
    const email = `google.${Date.now().toString(36)}@example.com`;
    const idToken = await googleIdToken({ sub: randomUUID(), email, email_verified: true, name: 'Gia Google' });
    // A deployment with a Meta pixel id (GET /api/config as the product answers it, plus the id), a
    // visitor who accepted before, and Google Identity Services' script as a stand-in that answers
    // the prompt with the ID token Google would give.
    const context = await browser.newContext({ baseURL: product.url, viewport: VIEWPORTS.desktop, bypassCSP: true });
    await context.addInitScript(INTRO_SEEN);
    await context.addInitScript(`localStorage.setItem('cookie_consent', 'accepted')`);
    await context.route('**/api/config', async (route) => {
      const real = (await (await route.fetch()).json()) as { pixels: object };
      return route.fulfill({ json: { ...real, pixels: { meta: '1234567890', tiktok: null } } });
    });
    await context.route('https://connect.facebook.net/**', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: '' }),
    );
    await context.route('https://accounts.google.com/gsi/client', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `window.google = { accounts: { id: {
          initialize(options) { this.options = options; },
          prompt() { setTimeout(() => this.options.callback({ credential: ${JSON.stringify(idToken)} })); },
          disableAutoSelect() {},
        } } };`,
      }),
    );
    const page = await context.newPage();
    const errors = recordErrors(page);
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/auth'));
    await page.getByTitle('Click to buy more tokens').getByText('200', { exact: true }).waitFor();
    await page.waitForFunction(() =>
      ((globalThis as unknown as { fbq?: { queue?: unknown[][] } }).fbq?.queue ?? []).some(
        (c) => c[1] === 'CompleteRegistration',
      ),
    );
    const calls = await page.evaluate(() => (globalThis as unknown as { fbq: { queue: unknown[][] } }).fbq.queue);
    assert.equal(calls.filter((c) => c[1] === 'CompleteRegistration').length, 1, JSON.stringify(calls));
    const me = await apiFromPage<{ email: string }>(page, '/api/auth/me');
    assert.equal(me.email, email);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
