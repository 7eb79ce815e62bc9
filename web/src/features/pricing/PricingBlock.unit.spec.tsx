// @vitest-environment jsdom
// The plan cards promise advanced prompting only when GET /api/images/options says a generative
// provider is configured (#28): a card must not sell what no job can do.
import assert from 'node:assert/strict';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, it, vi } from 'vitest';
import { fakeApi, json, renderPage } from '../../test/fake-api';
import { PricingBlock } from './PricingBlock';

const monthly = { price_id: 'price_lm', amount: 2400, currency: 'usd', display_price: '$24', savings: null };
const products = {
  subscriptions: [
    {
      id: 'lite',
      name: 'Lite',
      description: '',
      features: ['Sub-type enhancement options', 'Priority support', 'Advanced Prompting Options'],
      tokens_per_month: 1700,
      pricing: { monthly, yearly: monthly },
    },
  ],
  token_packs: [],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function liteCard(options: Response) {
  fakeApi({
    'GET /api/payments/products': json(200, products),
    'GET /api/images/options': options,
    'GET /api/auth/me': json(401, { detail: 'Not authenticated' }),
  });
  const { client } = renderPage(<PricingBlock />);
  const card = (await screen.findByRole('heading', { name: 'Lite' })).closest('article') as HTMLElement;
  // The options answer has landed (or failed): what the card shows now is what it will show.
  await waitFor(() => assert.notEqual(client.getQueryState(['/api/images/options'])?.status, 'pending'));
  return card;
}

describe('the plan cards and advanced prompting', () => {
  it('promise it where a generative provider is configured', async () => {
    const card = await liteCard(json(200, { advanced_prompting: true, instruction_max_length: 300 }));
    assert.ok(within(card).getByText('Advanced Prompting Options'));
    assert.ok(screen.getByRole('rowheader', { name: 'Advanced prompting' }));
  });

  it('do not promise it where none is, nor while the answer is missing', async () => {
    for (const answer of [
      json(200, { advanced_prompting: false, instruction_max_length: 300 }),
      json(500, { detail: 'boom' }),
    ]) {
      const card = await liteCard(answer);
      await within(card).findByText('Priority support');
      assert.equal(within(card).queryByText('Advanced Prompting Options'), null);
      assert.equal(screen.queryByRole('rowheader', { name: 'Advanced prompting' }), null);
      cleanup();
    }
  });
});
