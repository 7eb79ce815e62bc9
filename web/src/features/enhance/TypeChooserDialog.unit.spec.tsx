// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, it } from 'vitest';
import { heroEnhancementField, type MainType, withMainType } from '../../lib/enhancement-type';
import { TypeChooserDialog } from './TypeChooserDialog';

afterEach(cleanup);

function open() {
  const chosen: MainType[] = [];
  render(<TypeChooserDialog open onOpenChange={() => undefined} onChoose={(t) => chosen.push(t)} />);
  return chosen;
}

describe('TypeChooserDialog', () => {
  it('offers the four kinds in a focus-trapping dialog', () => {
    open();
    const dialog = screen.getByRole('dialog', { name: 'What are you enhancing?' });
    for (const label of ['Clothing', 'Accessories', 'Shoes', 'Details'])
      screen.getByRole('radio', { name: new RegExp(label) });
    assert.ok(dialog.contains(document.activeElement));
  });
  it('continues with the chosen kind', async () => {
    const chosen = open();
    await userEvent.click(screen.getByRole('radio', { name: /Shoes/ }));
    assert.equal(screen.getByRole('radio', { name: /Shoes/ }).getAttribute('aria-checked'), 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    assert.deepEqual(chosen, ['shoes']);
  });
  it('skips with clothing', async () => {
    const chosen = open();
    await userEvent.click(screen.getByRole('radio', { name: /Details/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Skip for Now' }));
    assert.deepEqual(chosen, ['clothing']);
  });
  it('sends tops, jewelry, two_shoe and logo_detail for the four kinds', () => {
    const sent = (['clothing', 'accessory', 'shoes', 'details'] as const).map((t) =>
      heroEnhancementField(withMainType(t)),
    );
    assert.deepEqual(sent, ['tops', 'jewelry', 'two_shoe', 'logo_detail']);
  });
});
