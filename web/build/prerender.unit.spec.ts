import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { PUBLIC_PAGES } from '../../gateway/src/web/public-pages';
import { pageHtml, withLowPriorityScripts } from './prerender';

// The client build's index.html as Vite writes it: the entry and the module preloads of its imports.
const shell = `<!doctype html>
<html lang="en">
  <head>
    <title>Flatlay</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-abc.js">
    <link rel="modulepreload" crossorigin href="/assets/client-abc.js">
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const tags = (html: string) => html.match(/<(script|link)\b[^>]*>/g) ?? [];

describe('a prerendered page’s scripts (ADR 0716)', () => {
  it('fetches the entry and every module preload at low priority, the style sheet as before', () => {
    const [home] = PUBLIC_PAGES;
    assert.ok(home);
    const html = pageHtml(shell, home, '<h1>Flatlay</h1>');
    const scripts = tags(html).filter((t) => /type="module"|rel="modulepreload"/.test(t));
    assert.equal(scripts.length, 3);
    for (const tag of scripts) assert.match(tag, /\sfetchpriority="low"/, tag);
    const sheet = tags(html).find((t) => t.includes('rel="stylesheet"'));
    assert.ok(sheet && !sheet.includes('fetchpriority'), sheet);
    assert.ok(html.includes('<div id="root"><h1>Flatlay</h1></div>'));
  });

  it('leaves a priority the shell already names, and adds it once', () => {
    const named = '<script type="module" fetchpriority="high" src="/a.js"></script>';
    assert.equal(withLowPriorityScripts(named), named);
    const once = withLowPriorityScripts(shell);
    assert.equal(withLowPriorityScripts(once), once);
  });
});
