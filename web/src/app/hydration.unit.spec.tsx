// @vitest-environment jsdom
// Each public page as the build prerendered it (web/dist, made by `npm test`'s build step before any
// test), taken over in the browser's way: AppRoot under a BrowserRouter, hydrated by Preact through
// preact/compat as in the production build (ADR 0718), in parts as main.tsx does (ADR 0719: the
// providers first, each part in a task of its own). The app is bundled for this test with the
// build's aliases (web/src/test/preact-harness.tsx). Preact reports no mismatch of its own, and while
// hydrating it neither fixes an attribute nor says so, so the test compares: the hydration must leave
// the page's markup exactly as it was, and the markup must be what Preact renders from nothing for
// the same first render (the stores' server snapshots, `whileHydrating`), element by element,
// attributes included. preact/debug adds the one message Preact has for a mismatch (an element of
// another type). For a first visit, and for a returning visitor whose storage holds a session, a
// cookie choice and the intro seen: what storage says must wait until after hydration.
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { afterAll, afterEach, beforeAll, describe, it, vi } from 'vitest';
import { PUBLIC_PAGES, prerenderedFile } from '../../../gateway/src/web/public-pages';
import { PREACT_COMPAT_ALIASES } from '../../build/preact-compat';
import { INTRO_SEEN_KEY } from '../features/content/IntroVideo';
import { COOKIE_CHOICE_KEY } from '../lib/consent';
import { fakeApi } from '../test/fake-api';
import type * as Harness from '../test/preact-harness';

// The tests run from the repository's root (jsdom's import.meta.url is no file address).
const dist = resolve('web/dist');

/** What the build put inside the page's root element. */
async function prerendered(path: string): Promise<string> {
  const html = await readFile(join(dist, prerenderedFile(path)), 'utf8');
  const inner = html.match(/<div id="root">([\s\S]*)<\/div>\s*<link rel="stylesheet"/)?.[1];
  assert.ok(inner, `${path}: a rendered root in the build`);
  return inner;
}

/**
 * The tree under `node` as lines, one per element or text: the tag with its attributes sorted (the
 * style as the browser parsed it, a form field's value and checked as properties, which Preact sets
 * instead of attributes), adjacent texts as one, comments left out.
 */
function shape(node: Node, depth = 0, out: string[] = []): string[] {
  let text = '';
  const flush = () => {
    if (text) out.push(`${'  '.repeat(depth)}"${text}"`);
    text = '';
  };
  for (const child of node.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) text += child.textContent ?? '';
    if (child.nodeType !== Node.ELEMENT_NODE) continue;
    flush();
    const el = child as HTMLElement;
    const attributes = [...el.attributes]
      .filter((a) => a.name !== 'style' && a.name !== 'value' && a.name !== 'checked')
      .map((a) => `${a.name}="${a.value}"`);
    if (el.style.cssText) attributes.push(`style="${el.style.cssText}"`);
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement)
      attributes.push(`.value="${el.value}"`);
    if (el instanceof HTMLInputElement && el.checked) attributes.push('.checked');
    out.push(`${'  '.repeat(depth)}<${el.localName} ${attributes.sort().join(' ')}>`);
    shape(el, depth + 1, out);
  }
  flush();
  return out;
}

const web = resolve('web');
const harnessDir = join(web, 'node_modules', '.cache', `flatlay-preact-harness-${process.pid}-${Date.now()}`);
let preact: typeof Harness;

beforeAll(async () => {
  await build({
    configFile: false,
    root: web,
    logLevel: 'warn',
    plugins: [react()],
    resolve: { alias: PREACT_COMPAT_ALIASES },
    ssr: { noExternal: true },
    build: { ssr: 'src/test/preact-harness.tsx', outDir: harnessDir, emptyOutDir: true, copyPublicDir: false },
  });
  preact = await import(/* @vite-ignore */ pathToFileURL(join(harnessDir, 'preact-harness.js')).href);
}, 120_000);

afterAll(() => rm(harnessDir, { recursive: true, force: true }));

const visitors: Record<string, () => void> = {
  'a first visit': () => {},
  'a returning visitor': () => {
    localStorage.setItem('auth_token', 'a-session-token');
    localStorage.setItem(COOKIE_CHOICE_KEY, 'accepted');
    localStorage.setItem(INTRO_SEEN_KEY, 'earlier');
  },
};

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  document.body.innerHTML = '';
});

// Every page at its address, and /auth as the Free card and a password reset link it: the build
// rendered it without a query, which the page reads only after hydration.
const addresses = [...PUBLIC_PAGES.map(({ path }) => ({ path, query: '' })), { path: '/auth', query: '?mode=signup' }];

/** The build's page at `path` in a root element of the document, at its address. */
async function mountPrerendered(path: string, query = ''): Promise<HTMLElement> {
  history.replaceState(null, '', `${path}${query}`);
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = await prerendered(path);
  document.body.append(root);
  return root;
}

/** Holds the effects Preact runs after the next frame until the test runs them (answers the list). */
function holdEffects(): Array<() => void> {
  const effects: Array<() => void> = [];
  preact.options.requestAnimationFrame = (run) => effects.push(run);
  return effects;
}

describe('hydrating the prerendered public pages with Preact', () => {
  for (const [visitor, prepare] of Object.entries(visitors))
    for (const { path, query } of addresses)
      it(`${path}${query}, ${visitor}: Preact takes the page over as it is, and it is Preact's own first render`, async () => {
        // No server here: every call answers 404 (what the page does with answers comes after hydration).
        fakeApi({});
        prepare();
        const root = await mountPrerendered(path, query);
        const before = root.innerHTML;
        const built = shape(root);
        const problems: string[] = [];
        vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) =>
          problems.push(args.map(String).join(' ')),
        );
        // As main.tsx does: the page's frame at once, then each part in a task of its own (ADR 0719).
        // The effects (the session, the storage) wait until every part is hydrated: Preact runs them
        // after the next frame, which is ours here.
        const { act, browserApp, createRoot, hydrateInParts, hydrateRoot, options, partsWaiting, whileHydrating } =
          preact;
        const effects = holdEffects();
        let hydrated: ReturnType<typeof hydrateRoot> | undefined;
        const parts = hydrateInParts(() => {
          hydrated = hydrateRoot(root, browserApp());
        });
        const afterFirstPass = root.innerHTML;
        // The app's frame and routes at least wait for a task of their own.
        const waitingAfterFirstPass = partsWaiting();
        await parts;
        const afterHydration = root.innerHTML;
        options.requestAnimationFrame = undefined;
        const fresh = document.createElement('div');
        document.body.append(fresh);
        const rendered = createRoot(fresh);
        whileHydrating(() => rendered.render(browserApp()));
        const own = shape(fresh);
        for (const run of effects) run();
        await act(async () => {});
        hydrated?.unmount();
        rendered.unmount();
        assert.deepEqual(
          problems.filter((p) => /hydrat|Expected a DOM node/i.test(p)),
          [],
        );
        assert.ok(waitingAfterFirstPass > 0, 'the first pass left the parts to later tasks');
        assert.equal(afterFirstPass, before, "the first pass changed the markup (a part's turn came early)");
        assert.equal(afterHydration, before, 'the hydration changed the markup');
        assert.deepEqual(own, built, "the build's markup is Preact's own first render");
      });

  it("/, a visitor's first press: every part queued nearby (all of them without an observer) is hydrated at once, and the page is still the build's", async () => {
    fakeApi({});
    const root = await mountPrerendered('/');
    const before = root.innerHTML;
    const { act, browserApp, hydrateInParts, hydrateRoot, options, partsWaiting } = preact;
    const effects = holdEffects();
    let hydrated: ReturnType<typeof hydrateRoot> | undefined;
    const parts = hydrateInParts(() => {
      hydrated = hydrateRoot(root, browserApp());
    });
    assert.ok(partsWaiting() > 0, 'parts wait after the first pass');
    // A finger on the page (in the browser, the microtasks that hydrate run before the press reaches
    // its target; here, after this call).
    root.querySelector('footer')?.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    assert.equal(partsWaiting(), 0, 'no part waits for its turn any more');
    await act(async () => {});
    assert.equal(root.innerHTML, before, 'the hydration changed the markup');
    await parts;
    options.requestAnimationFrame = undefined;
    for (const run of effects) run();
    await act(async () => {});
    hydrated?.unmount();
  });

  it('/ on a phone: the parts below the fold wait until they come near the viewport, or until a press lands in one (ADR 0720)', async () => {
    const api = fakeApi({});
    const root = await mountPrerendered('/');
    const before = root.innerHTML;
    const { act, browserApp, hydrateInParts, hydrateRoot, options, partsAway, partsWaiting } = preact;
    // The first screen of a phone: the app's frame, the header and the hero; the rest further down.
    const inSight = new Set(['app', 'header', 'hero']);
    const sight = installSight((element) =>
      inSight.has(element.previousElementSibling?.getAttribute('data-part') ?? ''),
    );
    const effects = holdEffects();
    let hydrated: ReturnType<typeof hydrateRoot> | undefined;
    void hydrateInParts(() => {
      hydrated = hydrateRoot(root, browserApp());
    });
    const belowTheFold = ['steps', 'showcase', 'features', 'pricing', 'faq', 'footer'];
    // Each nearby part has had its turn; those below wait, their markup the build's.
    await vi.waitFor(() => {
      assert.equal(partsAway(), belowTheFold.length);
      assert.equal(partsWaiting(), belowTheFold.length, 'only parts away wait');
    });
    assert.equal(root.innerHTML, before, 'the hydration changed the markup');
    const runEffects = async () => {
      for (const run of effects.splice(0)) run();
      await act(async () => {});
    };
    await runEffects();
    // The pricing block asks for the catalogue once hydrated: not while it waits below the fold.
    assert.deepEqual(api.calls('GET', '/api/payments/products'), [], 'the pricing part was hydrated');

    // Scrolled down to the pricing block: it comes near, has its turn, and asks for the catalogue.
    inSight.add('pricing');
    sight.report();
    await vi.waitFor(async () => {
      await runEffects();
      assert.equal(partsAway(), belowTheFold.length - 1);
      assert.ok(api.calls('GET', '/api/payments/products').length > 0, 'the pricing part was not hydrated');
    });

    // A press on the footer's Cookie settings, far below: the footer is hydrated before the press
    // reaches its button, and the other parts below keep waiting.
    const settings = [...root.querySelectorAll('footer button')].find((b) => b.textContent === 'Cookie settings');
    assert.ok(settings, "the footer's Cookie settings");
    settings.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    assert.equal(partsAway(), belowTheFold.length - 2, 'the footer waits still');
    await act(async () => {});
    await runEffects();
    options.requestAnimationFrame = undefined;
    hydrated?.unmount();
    sight.remove();
  });
});

/**
 * The browser's IntersectionObserver as far as the hydration uses it, with `inSight` saying what is
 * near the viewport (jsdom lays nothing out): it reports each element it is given to watch in a later
 * task, as the browser does after its next frame, and all of them again on `report` (a scroll).
 */
function installSight(inSight: (element: Element) => boolean) {
  const watchers: Array<{ report: () => void }> = [];
  class Sight {
    readonly watched = new Set<Element>();
    constructor(private readonly onReport: (entries: Array<{ target: Element; isIntersecting: boolean }>) => void) {
      watchers.push(this);
    }
    observe(element: Element) {
      this.watched.add(element);
      setTimeout(() => this.report(), 0);
    }
    unobserve(element: Element) {
      this.watched.delete(element);
    }
    disconnect() {
      this.watched.clear();
    }
    report() {
      if (this.watched.size > 0)
        this.onReport([...this.watched].map((target) => ({ target, isIntersecting: inSight(target) })));
    }
  }
  vi.stubGlobal('IntersectionObserver', Sight);
  return {
    report: () => {
      for (const watcher of watchers) watcher.report();
    },
    remove: () => vi.unstubAllGlobals(),
  };
}
