// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, it } from 'vitest';
import { Showcase } from './Showcase';
import pairs from './showcase-pairs.json';

afterEach(cleanup);

// Issue 31: the showcase in modern formats, sized by the browser from srcset and sizes, with its
// dimensions given (nothing moves when an image arrives), lazily (it is below the fold).
describe('the showcase', () => {
  it('renders each side as a <picture>: AVIF then WebP at 240 and 480 px, an <img> of 480 × 480, lazy', () => {
    render(<Showcase />);
    const first = pairs[0]!;
    const img = screen.getByRole('img', { name: `${first.what}, after` });
    const picture = img.parentElement;
    assert.equal(picture?.tagName, 'PICTURE');
    const sources = [...(picture?.querySelectorAll('source') ?? [])];
    assert.deepEqual(
      sources.map((s) => s.getAttribute('type')),
      ['image/avif', 'image/webp'],
    );
    assert.deepEqual(
      sources.map((s) => s.getAttribute('srcset')),
      [
        `/showcase/${first.after}-240.avif 240w, /showcase/${first.after}-480.avif 480w`,
        `/showcase/${first.after}-240.webp 240w, /showcase/${first.after}-480.webp 480w`,
      ],
    );
    for (const s of sources) assert.match(s.getAttribute('sizes') ?? '', /calc\(100vw - 2rem\), 300px$/);
    assert.equal(img.getAttribute('src'), `/showcase/${first.after}-480.webp`);
    assert.equal(img.getAttribute('width'), '480');
    assert.equal(img.getAttribute('height'), '480');
    assert.equal(img.getAttribute('loading'), 'lazy');

    // Every image of the section (both sides of the ten pairs, and the loop's) is such a picture.
    const all = [...document.querySelectorAll('section img')];
    assert.equal(all.length, pairs.length * 2 + 6);
    for (const i of all) {
      assert.equal(i.parentElement?.tagName, 'PICTURE', i.outerHTML);
      assert.ok(i.parentElement?.querySelector('source[type="image/avif"]'), i.outerHTML);
      assert.equal(i.getAttribute('width'), '480');
      assert.equal(i.getAttribute('loading'), 'lazy');
    }
  });
});
