import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useProducts } from '../api/queries';
import { Spinner } from '../components/Spinner';
import { goToCheckout } from '../features/pricing/checkout';
import { formatMinorUnits } from '../lib/constants';
import { formatCount } from '../lib/format-count';

type Tab = 'tokens' | 'subscription';
type Cycle = 'monthly' | 'yearly';

interface Choice {
  id: string;
  name: string;
  price: string;
  tokens: number;
  period: string;
  priceId: string | null | undefined;
}

/** The purchase page: pick a pack or a plan, read the summary, go to the hosted checkout. */
export default function CheckoutPage() {
  const [query] = useSearchParams();
  const products = useProducts();
  const [tab, setTab] = useState<Tab>(query.get('type') === 'subscription' ? 'subscription' : 'tokens');
  const [cycle, setCycle] = useState<Cycle>('monthly');
  const [selectedId, setSelectedId] = useState<string | null>(query.get('product'));
  const [busy, setBusy] = useState(false);

  if (products.isPending) return <Spinner label="Loading products" />;
  if (products.isError)
    return (
      <section className="page page--center" role="alert">
        <h1>Error Loading Products</h1>
        <p className="muted">{products.error.message}</p>
        <button type="button" className="button button--primary" onClick={() => void products.refetch()}>
          Retry
        </button>
      </section>
    );

  const choices: Choice[] =
    tab === 'tokens'
      ? products.data.token_packs.map((p) => ({
          id: p.id,
          name: p.name,
          price: p.display_price ?? formatMinorUnits(p.amount, p.currency),
          tokens: p.tokens,
          period: 'One-time',
          priceId: p.price_id,
        }))
      : products.data.subscriptions
          .filter((s) => s.id !== 'free' && s.pricing[cycle])
          .map((s) => {
            const price = s.pricing[cycle]!;
            return {
              id: s.id,
              name: s.name,
              price: price.display_price ?? formatMinorUnits(price.amount, price.currency),
              tokens: cycle === 'yearly' ? s.tokens_per_month * 12 : s.tokens_per_month,
              period: cycle === 'yearly' ? 'Yearly' : 'Monthly',
              priceId: price.price_id,
            };
          });
  const selected = choices.find((c) => c.id === selectedId) ?? choices[0];

  const proceed = async () => {
    setBusy(true);
    const left = await goToCheckout(selected?.priceId, tab === 'tokens' ? 'payment' : 'subscription');
    if (!left) setBusy(false);
  };

  return (
    <div className="page checkout">
      <h1>Complete your purchase</h1>
      <div className="tabs" role="tablist" aria-label="Product kind">
        {(['tokens', 'subscription'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={tab === t}
            className={`tabs__tab${tab === t ? ' tabs__tab--active' : ''}`}
            onClick={() => setTab(t)}
          >
            {t === 'tokens' ? 'Token Packs' : 'Subscriptions'}
          </button>
        ))}
      </div>
      {tab === 'subscription' && (
        <fieldset className="links-row plain-fieldset">
          <legend className="visually-hidden">Billing period</legend>
          {(['monthly', 'yearly'] as const).map((c) => (
            <button
              key={c}
              type="button"
              aria-pressed={cycle === c}
              className={`button ${cycle === c ? 'button--primary' : 'button--outline'}`}
              onClick={() => setCycle(c)}
            >
              {c === 'monthly' ? 'Monthly' : 'Yearly (Save 20%)'}
            </button>
          ))}
        </fieldset>
      )}
      <div className="checkout__layout">
        <div className="choice-list" role="radiogroup" aria-label="Products">
          {choices.map((c) => (
            <label key={c.id} className={`choice${selected?.id === c.id ? ' choice--active' : ''}`}>
              <input type="radio" name="product" checked={selected?.id === c.id} onChange={() => setSelectedId(c.id)} />
              <span className="choice__name">{c.name}</span>
              <span className="choice__price">{c.price}</span>
              <span className="small muted">{formatCount(c.tokens)} tokens</span>
            </label>
          ))}
        </div>
        <aside className="summary" aria-labelledby="summary-title">
          <h2 id="summary-title">Order Summary</h2>
          {selected ? (
            <dl>
              <dt>Product</dt>
              <dd>{selected.name}</dd>
              <dt>Price</dt>
              <dd>{selected.price}</dd>
              <dt>Tokens</dt>
              <dd>{formatCount(selected.tokens)}</dd>
              <dt>Billing</dt>
              <dd>{selected.period}</dd>
            </dl>
          ) : (
            <p className="muted">No products available.</p>
          )}
          <button
            type="button"
            className="button button--primary button--block"
            disabled={!selected || busy}
            onClick={proceed}
          >
            {busy ? 'Processing...' : 'Proceed to Checkout'}
          </button>
          <p className="small muted">Have a promo code? You can enter it on the secure checkout page.</p>
        </aside>
      </div>
    </div>
  );
}
