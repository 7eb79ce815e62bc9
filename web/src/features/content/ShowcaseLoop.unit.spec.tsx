// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, it, vi } from 'vitest';
import { LOOP_PAIRS, LOOP_STEP_SECONDS, ShowcaseLoop } from './ShowcaseLoop';
import { showcaseUrl } from './showcase-images';

const webp = (name: string) => showcaseUrl(name, 480, 'webp');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const motion = (reduce: boolean) =>
  vi.stubGlobal('matchMedia', (q: string) => ({
    matches: reduce && q === '(prefers-reduced-motion: reduce)',
    addEventListener: () => {},
    removeEventListener: () => {},
  }));

// Issue 28, item 9: the specification's loop animation of the showcase pairs.
describe('the showcase loop', () => {
  it('plays each photo then its flat-lay in turn, in a box of fixed size', () => {
    motion(false);
    render(<ShowcaseLoop />);
    const loop = screen.getByTestId('showcase-loop');
    const images = [...loop.querySelectorAll('img')];
    assert.deepEqual(
      images.map((i) => i.getAttribute('src')),
      LOOP_PAIRS.flatMap((p) => [webp(p.before), webp(p.after)]),
    );
    assert.deepEqual(
      images.map((i) => i.style.animationDelay),
      images.map((_, n) => `${n * LOOP_STEP_SECONDS}s`),
    );
    assert.equal(loop.style.getPropertyValue('--loop-duration'), `${images.length * LOOP_STEP_SECONDS}s`);
    // Sized before it loads (no shift), lazily, and hidden from assistive technology (decorative).
    assert.ok(images.every((i) => i.getAttribute('width') === '480' && i.getAttribute('height') === '480'));
    assert.ok(images.every((i) => i.getAttribute('loading') === 'lazy'));
    assert.equal(loop.getAttribute('aria-hidden'), 'true');
  });

  it('shows one still flat-lay to a visitor who asks for reduced motion', () => {
    motion(true);
    render(<ShowcaseLoop />);
    const loop = screen.getByTestId('showcase-loop');
    const images = [...loop.querySelectorAll('img')];
    assert.deepEqual(
      images.map((i) => i.getAttribute('src')),
      [webp(LOOP_PAIRS[0]!.after)],
    );
    assert.equal(images[0]!.style.animationDelay, '');
    assert.ok(loop.classList.contains('showcase-loop--still'));
  });
});
