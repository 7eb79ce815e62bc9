// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, it } from 'vitest';
import { FAQ, FaqAccordion } from './FaqAccordion';
import { FeatureCards } from './FeatureCards';

afterEach(cleanup);

// Issue 28, item 11: the public pages state the measured time and the real output size, and the
// round numbers nobody measured ("10-20 seconds", "High-resolution") are gone.
describe('claims on the public pages', () => {
  it('the home page cards state the measured time per image and the output size', () => {
    render(<FeatureCards />);
    screen.getByText('About 0.9 s of processing per 12 MP photo, measured on a 2-core server without a GPU.');
    screen.getByText(/Every result is a 2048 px JPEG \(its long side\) on a white background/);
    const text = document.body.textContent ?? '';
    assert.doesNotMatch(text, /10-20 seconds|High-resolution/);
  });

  it('the FAQ answers "how long" with the measured figures', () => {
    render(
      <MemoryRouter>
        <FaqAccordion />
      </MemoryRouter>,
    );
    const answer = FAQ.find((f) => f.q === 'How long does an enhancement take?')?.a ?? '';
    assert.match(answer, /About 0\.9 s of processing for a 12 MP photo, measured on a 2-core server without a GPU/);
    assert.match(answer, /half had their result within 24 s/);
    for (const f of FAQ) assert.doesNotMatch(f.a, /10-20 seconds/);
  });
});
