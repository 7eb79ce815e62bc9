// The web app in a real headless Chromium against the product started as `npm start` runs it:
// every route renders without console errors (screenshots at 375 px and 1440 px kept under
// reports/web-e2e), the guards, the 404 page, a guest's try with upload progress and its locked
// preview, and a new user's journey through sign-up, enhancement, the live Recent images and an
// unlock with tokens. axe-core checks /, /auth, /dashboard and /pricing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  launchChromium,
  newContext,
  recordErrors,
  repoRoot,
  type RunningProduct,
  screenshot,
  startProduct,
  VIEWPORTS,
} from './support/product.js';

const photo = join(repoRoot, 'services/image/test/fixtures/top_floor_01.jpg');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The product catalogue and checkout (/api/payments/*) come with the billing work and are not
 * served yet: the pricing block's request for them answers 404, which Chromium logs. That one
 * missing resource is the only console error tolerated; anything else fails the test.
 */
const notYetServed = (e: string) => /Failed to load resource: .*404/.test(e) && e.includes('/api/payments/');
const unexpected = (errors: string[]) => errors.filter((e) => !notYetServed(e));

let product: RunningProduct;
let browser: Browser;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** axe-core's serious and critical findings on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const found = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: () => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

async function signUp(page: Page, email: string) {
  await page.goto('/auth?mode=signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Create Account' }).click();
  // The post-login redirect leaves /auth; the header then shows the 200 free tokens.
  await page.waitForURL((u) => !u.pathname.startsWith('/auth'));
  await page.getByTitle('Click to buy more tokens').getByText('200', { exact: true }).waitFor();
}

/** Picks the photo, presses Enhance Image and confirms the type chooser's choice. */
async function enhance(page: Page) {
  await page.locator('input[type=file]').first().setInputFiles(photo);
  await page.getByRole('button', { name: 'Enhance Image' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
}

describe('the web app in headless Chromium', { timeout: 600_000 }, () => {
  it('renders every route without console errors at 375 px and 1440 px, keeps /api JSON, and guards the signed-in pages', async () => {
    const routes: Array<[string, string, RegExp]> = [
      ['home', '/', /Studio flat-lays from casual photos/],
      // No GOOGLE_CLIENT_ID here: the button says Google sign-in is not configured.
      ['auth', '/auth', /Google sign-in is not configured/],
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
      assert.deepEqual(unexpected(errors), [], `console errors at ${label}`);
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
    // Nothing third-party is configured: /api/config says so and the CSP allows no other origin.
    const config = await (await fetch(`${product.url}/api/config`)).json();
    assert.deepEqual(config, { google_client_id: null, support_email: null, pixels: { meta: null, tiktok: null } });
    const csp = spa.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /https:/);
  });

  it('axe-core finds no serious or critical violation on /, /auth and /pricing', async () => {
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
      await page.waitForLoadState('networkidle');
      assert.deepEqual(await seriousViolations(page), [], `axe on ${path}`);
    }
    await context.close();
  });

  it('a guest enhances a photo with upload progress and sees the locked preview', async () => {
    const context = await newContext(browser, product.url);
    const page = await context.newPage();
    const errors = recordErrors(page);
    await page.goto('/');
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
    await page.getByText('AI PROCESSING...').waitFor();
    await page.getByText('Your enhanced image is ready!').waitFor({ timeout: 300_000 });
    await page.getByRole('button', { name: 'Pay $5 to Unlock' }).waitFor();
    await screenshot(page, 'guest-locked-desktop');
    assert.deepEqual(unexpected(errors), []);
    await context.close();
  });

  it('a new user signs up with 200 tokens, enhances, sees the result live in Recent images, and unlocks a locked image with tokens', async () => {
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
    await enhance(page);
    await page.getByText('AI PROCESSING...').waitFor();
    // The result: the preview's Download, and the same image completed in Recent images.
    const previewDownload = page.getByLabel('Enhancement preview').getByRole('button', { name: 'Download' });
    await previewDownload.waitFor({ timeout: 300_000 });
    await recent.locator('li[data-status="completed"]').first().waitFor();
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
    const made = await page.evaluate(
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
        return { status: res.status, body: await res.json() };
      },
      [...readFileSync(photo)],
    );
    assert.ok(made.status === 200 || made.status === 201 || made.status === 202, JSON.stringify(made));
    const locked = recent.locator('li[data-status="locked"]');
    await locked.waitFor({ timeout: 300_000 });
    await locked.getByText('Need 100 tokens to unlock').waitFor();
    await locked.getByRole('button', { name: 'Unlock for $5' }).waitFor();
    await screenshot(page, 'dashboard-locked-desktop');

    // 100 tokens arrive (the operator's grant stands in for buying main_pack until checkout is served).
    assert.equal(await product.adjustTokens(email, 100, 'add'), 100);
    await page.reload();
    await locked.getByRole('button', { name: 'Unlock with 100 tokens' }).click();
    await recent.locator('li[data-status="locked"]').waitFor({ state: 'detached' });
    assert.equal(await recent.locator('li[data-status="completed"]').count(), 2);
    await page.getByTitle('Click to buy more tokens').getByText('0', { exact: true }).waitFor();
    const [tileDownload] = await Promise.all([
      page.waitForEvent('download'),
      recent.locator('li[data-status="completed"]').first().getByRole('button', { name: 'Download' }).click(),
    ]);
    assert.match(tileDownload.suggestedFilename(), /^enhanced-[\w-]+\.png$/);
    await screenshot(page, 'dashboard-desktop');
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, 'dashboard-mobile');
    assert.deepEqual(unexpected(errors), []);
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
});
