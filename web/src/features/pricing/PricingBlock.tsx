import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useGenerationOptions, useProducts } from '../../api/queries';
import type { SubscriptionProduct, TokenPack } from '../../api/schema';
import { useAuth } from '../../auth/auth-context';
import { Spinner } from '../../components/Spinner';
import { toast } from '../../components/toast/toast-store';
import { FREE_SIGNUP_TOKENS, formatMinorUnits } from '../../lib/constants';
import { formatCount } from '../../lib/format-count';
import { type Cycle, planCardLines } from './plan-lines';
import { usePurchase } from './use-purchase';

/** Plans and token packs from the products answer, with the monthly/yearly switch. */
export function PricingBlock({ title = 'Simple, transparent pricing' }: { title?: string }) {
  const products = useProducts();
  // Promised only on a true answer: while it loads, or if it fails, the cards do not promise it.
  const prompting = useGenerationOptions().data?.advanced_prompting === true;
  const [cycle, setCycle] = useState<Cycle>('monthly');
  const { buy, pendingId } = usePurchase();

  return (
    <section className="pricing" aria-labelledby="pricing-title" id="pricing">
      <h2 id="pricing-title">{title}</h2>
      <p className="pricing__rate">100 TOKENS = 1 IMAGE</p>
      <fieldset className="cycle-toggle" aria-label="Billing period">
        {(['monthly', 'yearly'] as const).map((c) => (
          <label key={c} className={`cycle-toggle__option${cycle === c ? ' cycle-toggle__option--active' : ''}`}>
            <input
              type="radio"
              name="billing-cycle"
              className="visually-hidden"
              checked={cycle === c}
              onChange={() => setCycle(c)}
            />
            {c === 'monthly' ? 'Monthly' : 'Yearly'}
            {c === 'yearly' && <span className="badge badge--save">Save 20%</span>}
          </label>
        ))}
      </fieldset>
      {products.isPending ? (
        <div className="pricing__pending">
          <Spinner label="Loading plans" />
        </div>
      ) : products.isError ? (
        <p className="error-text" role="alert">
          Failed to load plans. Please try again later.
        </p>
      ) : (
        <>
          <div className="card-grid">
            <FreeCard />
            {products.data.subscriptions
              .filter((s) => s.id !== 'free')
              .map((s) => (
                <PlanCard
                  key={s.id}
                  plan={s}
                  cycle={cycle}
                  advancedPrompting={prompting}
                  busy={pendingId === s.id}
                  onBuy={() => {
                    const price = s.pricing[cycle];
                    void buy({
                      id: s.id,
                      priceId: price?.price_id,
                      productType: 'subscription',
                      name: s.name,
                      amount: price?.amount ?? 0,
                      billingCycle: cycle,
                    });
                  }}
                />
              ))}
          </div>
          <h3 className="pricing__subtitle">Token packs</h3>
          <div className="card-grid">
            {products.data.token_packs.map((p) => (
              <PackCard
                key={p.id}
                pack={p}
                busy={pendingId === p.id}
                onBuy={() =>
                  void buy({ id: p.id, priceId: p.price_id, productType: 'payment', name: p.name, amount: p.amount })
                }
              />
            ))}
          </div>
          <ComparisonTable advancedPrompting={prompting} />
        </>
      )}
    </section>
  );
}

function FreeCard() {
  const { authUser } = useAuth();
  return (
    <article className="price-card">
      <h3>Free</h3>
      <p className="price-card__price">$0</p>
      <ul className="checklist">
        <li>{FREE_SIGNUP_TOKENS} tokens</li>
        <li>Auto-claimed at sign-up</li>
        <li>Email support</li>
      </ul>
      {authUser ? (
        <button
          type="button"
          className="button button--outline button--block"
          onClick={() =>
            toast({
              title: 'Free tokens already claimed!',
              description: 'You received 200 free tokens when you signed up',
            })
          }
        >
          Already Claimed
        </button>
      ) : (
        <Link
          to="/auth?mode=signup"
          className="button button--outline button--block"
          onClick={() =>
            toast({
              title: 'Sign up required',
              description: `Create a free account to claim your ${FREE_SIGNUP_TOKENS} tokens.`,
            })
          }
        >
          Get Started
        </Link>
      )}
    </article>
  );
}

function PlanCard(props: {
  plan: SubscriptionProduct;
  cycle: Cycle;
  advancedPrompting: boolean;
  busy: boolean;
  onBuy: () => void;
}) {
  const { plan, cycle } = props;
  const price = plan.pricing[cycle];
  const popular = plan.id === 'lite';
  return (
    <article className={`price-card${popular ? ' price-card--featured' : ''}`}>
      <span className="badge">{popular ? 'Most Popular' : 'Premium Features'}</span>
      <h3>{plan.name}</h3>
      <p className="price-card__price">
        {price ? (price.display_price ?? formatMinorUnits(price.amount, price.currency)) : '—'}
        <span className="small muted">/{cycle === 'yearly' ? 'year' : 'month'}</span>
      </p>
      {cycle === 'yearly' && price?.savings ? <p className="small accent">Save {price.savings}</p> : null}
      <p className="muted small">{plan.description}</p>
      <ul className="checklist">
        {planCardLines(plan, cycle, props.advancedPrompting).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <button
        type="button"
        className="button button--primary button--block"
        disabled={props.busy}
        onClick={props.onBuy}
      >
        {props.busy ? 'Creating Session...' : 'Get Started'}
      </button>
    </article>
  );
}

function PackCard(props: { pack: TokenPack; busy: boolean; onBuy: () => void }) {
  const { pack } = props;
  const popular = pack.id === 'main_pack';
  return (
    <article className={`price-card${popular ? ' price-card--featured' : ''}`}>
      {popular && <span className="badge">Most Popular</span>}
      <h3>{pack.name}</h3>
      <p className="price-card__price">{pack.display_price ?? formatMinorUnits(pack.amount, pack.currency)}</p>
      <p className="muted small">{pack.description}</p>
      <ul className="checklist">
        <li>{formatCount(pack.tokens)} tokens</li>
        <li>No expiration</li>
        <li>Works with any plan</li>
        <li>All backgrounds</li>
      </ul>
      <button
        type="button"
        className="button button--primary button--block"
        disabled={props.busy}
        onClick={props.onBuy}
      >
        {props.busy ? 'Processing...' : 'Buy Now'}
      </button>
    </article>
  );
}

const ADVANCED_PROMPTING_ROW = 'Advanced prompting';
const COMPARISON: [string, string, string, string][] = [
  ['Tokens', '200 once', 'As bought', 'Every month'],
  ['Expiry', 'Never', 'Never', 'Monthly allowance'],
  ['Enhancement types', 'Main types', 'Main types', 'All sub-types'],
  [ADVANCED_PROMPTING_ROW, '—', '—', 'Yes'],
  ['Support', 'Email', 'Email', 'Priority'],
];

function ComparisonTable({ advancedPrompting }: { advancedPrompting: boolean }) {
  return (
    <div className="table-scroll">
      <table className="comparison">
        <caption className="visually-hidden">Feature comparison</caption>
        <thead>
          <tr>
            <th scope="col">Feature</th>
            <th scope="col">Free</th>
            <th scope="col">Token Packs</th>
            <th scope="col">Subscriptions</th>
          </tr>
        </thead>
        <tbody>
          {COMPARISON.filter(([feature]) => advancedPrompting || feature !== ADVANCED_PROMPTING_ROW).map(
            ([feature, ...cells]) => (
              <tr key={feature}>
                <th scope="row">{feature}</th>
                {cells.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
                  <td key={i}>{c}</td>
                ))}
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}
