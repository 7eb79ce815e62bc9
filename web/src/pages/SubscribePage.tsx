import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useProducts } from '../api/queries';
import type { SubscriptionProduct } from '../api/schema';
import { useAuth } from '../auth/auth-context';
import { Spinner } from '../components/Spinner';
import { errorToast } from '../components/toast/toast-store';
import { fetchStripeConfig, startSubscriptionCheckout } from '../features/account/billing-api';
import { InlineSignIn } from '../features/account/InlineSignIn';
import { type BillingPeriod, SUBSCRIPTION_PLANS } from '../features/account/subscription';
import { formatMinorUnits } from '../lib/constants';
import { navigateAway } from '../lib/navigate-away';
import { rememberCheckout } from '../lib/purchase-tracking';
import { checkoutErrorTitle } from '../features/account/checkout-errors';
import '../features/admin/admin.css';
import { formatCount } from '../lib/format-count';

const priceText = (product: SubscriptionProduct, period: BillingPeriod) => {
  const price = product.pricing[period];
  if (!price) return '';
  return price.display_price || formatMinorUnits(price.amount, price.currency);
};

const tokensFor = (product: SubscriptionProduct, period: BillingPeriod) =>
  product.tokens_per_month * (period === 'yearly' ? 12 : 1);

/** /subscribe: choose a plan and a period, see the order, and go to the hosted checkout. */
export default function SubscribePage() {
  const { authUser, loading } = useAuth();
  const [params] = useSearchParams();
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const [planId, setPlanId] = useState<string>('studio');
  const [busy, setBusy] = useState(false);
  const products = useProducts();
  const config = useQuery({ queryKey: ['/api/stripe/config'], queryFn: ({ signal }) => fetchStripeConfig(signal) });
  const plans = (products.data?.subscriptions ?? []).filter(
    (p) => (SUBSCRIPTION_PLANS as readonly string[]).includes(p.id) && p.pricing[period],
  );
  const chosen = plans.find((p) => p.id === planId) ?? plans[0];

  async function subscribe() {
    if (!chosen) return;
    setBusy(true);
    try {
      const answer = await startSubscriptionCheckout(`${chosen.id}_${period}`, params.get('promo') ?? undefined);
      if (!answer?.url) throw new Error('The checkout could not be started.');
      rememberCheckout({ plan: chosen.id, period });
      navigateAway(answer.url);
    } catch (error) {
      errorToast(
        checkoutErrorTitle(error),
        error instanceof Error && error.message ? error.message : 'Please try again.',
      );
      setBusy(false);
    }
  }

  if (products.isPending || config.isPending || loading) return <Spinner label="Loading plans" />;
  if (config.isError)
    return (
      <section className="page page--center">
        <h1>Payment System Unavailable</h1>
        <p className="muted">Payments cannot be reached right now. Please try again in a few minutes.</p>
      </section>
    );
  if (!config.data?.publishableKey)
    return (
      <section className="page page--center">
        <h1>Payment System Not Configured</h1>
        <p className="muted">Subscriptions are not available yet. An administrator has to set up payments first.</p>
      </section>
    );

  return (
    <section className="page account">
      <h1>Choose Your Plan</h1>
      <fieldset className="cycle-toggle" aria-label="Billing period">
        {(['monthly', 'yearly'] as const).map((p) => (
          <label key={p} className={`cycle-toggle__option${period === p ? ' cycle-toggle__option--active' : ''}`}>
            <input
              type="radio"
              name="billing-period"
              className="visually-hidden"
              checked={period === p}
              onChange={() => setPeriod(p)}
            />
            {p === 'monthly' ? 'Monthly' : 'Yearly'}
          </label>
        ))}
      </fieldset>
      {products.isError && <p className="error-text">Could not load the plans. Please refresh the page.</p>}
      <div className="checkout__layout">
        <div className="subscribe__plans" role="radiogroup" aria-label="Plan">
          {plans.map((p) => {
            const savings = p.pricing[period]?.savings;
            return (
              // biome-ignore lint/a11y/useSemanticElements: a card-sized radio needs a button, and role radio keeps its meaning
              <button
                key={p.id}
                type="button"
                role="radio"
                aria-checked={chosen?.id === p.id}
                className={`plan-choice${chosen?.id === p.id ? ' plan-choice--active' : ''}`}
                onClick={() => setPlanId(p.id)}
              >
                <span className="choice__name">{p.name}</span>
                <span className="plan-choice__price">{priceText(p, period)}</span>
                <span className="small muted">
                  {formatCount(tokensFor(p, period))} tokens {period === 'yearly' ? 'a year' : 'a month'}
                </span>
                {period === 'yearly' && savings ? <span className="badge badge--save">Save {savings}</span> : null}
              </button>
            );
          })}
        </div>
        <aside className="summary" aria-labelledby="order-title">
          <h2 id="order-title">Order Summary</h2>
          {chosen ? (
            <dl>
              <dt>Plan</dt>
              <dd>{chosen.name}</dd>
              <dt>Billing</dt>
              <dd>{period === 'monthly' ? 'Monthly' : 'Yearly'}</dd>
              <dt>Tokens</dt>
              <dd>{formatCount(tokensFor(chosen, period))}</dd>
              <dt>Total</dt>
              <dd>{priceText(chosen, period)}</dd>
            </dl>
          ) : (
            <p className="muted">No plan is on sale right now.</p>
          )}
          {authUser ? (
            <button
              type="button"
              className="button button--primary button--block"
              disabled={!chosen || busy}
              onClick={() => void subscribe()}
            >
              {busy ? 'Redirecting…' : 'Subscribe'}
            </button>
          ) : (
            <InlineSignIn />
          )}
          <p className="small muted">Subscription fees are billed each period and are non-refundable.</p>
        </aside>
      </div>
    </section>
  );
}
