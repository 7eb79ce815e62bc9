// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, it } from 'vitest';
import { dashboardEnhancementField, defaultEnhancementType, type EnhancementType } from '../../lib/enhancement-type';
import { EnhancementTypeCard } from './EnhancementTypeCard';

afterEach(cleanup);

/** The card as the dashboard holds it; the output shows what an enhancement would send as enhancement_type. */
function Holder({ subscriber, seen }: { subscriber: boolean; seen: EnhancementType[] }) {
  const [value, setValue] = useState(defaultEnhancementType);
  return (
    <>
      <EnhancementTypeCard
        value={value}
        subscriber={subscriber}
        onChange={(v) => {
          seen.push(v);
          setValue(v);
        }}
      />
      <output data-testid="sent">{dashboardEnhancementField(value, subscriber)}</output>
    </>
  );
}

/** The card with the dashboard's instruction state; `typed` records what it was told. */
function WithPrompt({ subscriber, on, typed }: { subscriber: boolean; on: boolean; typed: string[] }) {
  const [text, setText] = useState('');
  return (
    <EnhancementTypeCard
      value={defaultEnhancementType}
      subscriber={subscriber}
      onChange={() => {}}
      prompting={
        on
          ? {
              value: text,
              maxLength: 300,
              onChange: (v) => {
                typed.push(v);
                setText(v);
              },
            }
          : undefined
      }
    />
  );
}

function renderCard(subscriber: boolean) {
  const seen: EnhancementType[] = [];
  render(
    <MemoryRouter>
      <Holder subscriber={subscriber} seen={seen} />
    </MemoryRouter>,
  );
  return seen;
}

describe('EnhancementTypeCard', () => {
  it('lets an active subscriber choose a sub-type, which is what the enhancement sends', async () => {
    const seen = renderCard(true);
    assert.equal(screen.queryByText('Unlock More Features'), null);
    const subTypes = screen.getByRole('group', { name: 'Sub-type' });
    assert.ok(screen.getByRole('radio', { name: 'Tops' }).matches(':checked'), 'tops is the default');
    assert.equal(subTypes.querySelectorAll('input').length, 3);

    await userEvent.click(screen.getByRole('radio', { name: 'Shoes' }));
    // Switching the main type starts from the first sub-type of its group.
    assert.deepEqual(seen.at(-1), { type: 'shoes', subType: 'two_shoe' });
    await userEvent.click(screen.getByRole('radio', { name: 'Side view' }));
    assert.deepEqual(seen.at(-1), { type: 'shoes', subType: 'side_view' });
    assert.equal(screen.getByTestId('sent').textContent, 'side_view');
  });

  it('shows everyone else the Unlock More Features card leading to /pricing, and sends the main type', async () => {
    renderCard(false);
    assert.equal(screen.queryByRole('group', { name: 'Sub-type' }), null);
    assert.equal(screen.queryByRole('radio', { name: 'Side view' }), null);
    screen.getByRole('heading', { name: 'Unlock More Features' });
    assert.equal(screen.getByRole('link', { name: 'View Plans' }).getAttribute('href'), '/pricing');
    await userEvent.click(screen.getByRole('radio', { name: 'Details' }));
    assert.equal(screen.getByTestId('sent').textContent, 'details');
  });

  it('offers a subscriber the advanced-prompting field (length-limited) only when prompting is on', async () => {
    const typed: string[] = [];
    const { rerender } = render(
      <MemoryRouter>
        <WithPrompt subscriber on typed={typed} />
      </MemoryRouter>,
    );
    const field = screen.getByRole('textbox', { name: 'Advanced prompting (optional)' });
    assert.equal(field.getAttribute('maxlength'), '300');
    await userEvent.type(field, 'logo up');
    assert.equal(typed.at(-1), 'logo up');
    assert.ok(screen.getByText('7/300 characters, sent with your next enhancement'));
    for (const [subscriber, on] of [
      [false, true],
      [true, false],
    ] as const) {
      rerender(
        <MemoryRouter>
          <WithPrompt subscriber={subscriber} on={on} typed={typed} />
        </MemoryRouter>,
      );
      assert.equal(screen.queryByRole('textbox', { name: 'Advanced prompting (optional)' }), null);
    }
  });
});
