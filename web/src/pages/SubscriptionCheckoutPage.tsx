import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Spinner } from '../components/Spinner';
import { errorToast } from '../components/toast/toast-store';
import { startSubscriptionCheckout } from '../features/account/billing-api';
import { checkoutErrorTitle } from '../features/account/checkout-errors';
import { parsePlanKey } from '../features/account/subscription';
import { navigateAway } from '../lib/navigate-away';
import { rememberCheckout } from '../lib/purchase-tracking';

/** /subscription-checkout?plan=studio_monthly&promo=…: starts the hosted checkout by itself. */
export default function SubscriptionCheckoutPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const planKey = params.get('plan');
  const promo = params.get('promo') ?? undefined;
  const [failure, setFailure] = useState<{ title: string; message: string } | null>(null);
  const [attempt, setAttempt] = useState(0);
  // One checkout per attempt, even when React runs the effect twice (StrictMode).
  const started = useRef(-1);

  useEffect(() => {
    if (started.current === attempt) return;
    started.current = attempt;
    if (!parsePlanKey(planKey)) {
      errorToast('Invalid Plan', 'Please choose a plan from the pricing page.');
      navigate('/pricing', { replace: true });
      return;
    }
    startSubscriptionCheckout(planKey as string, promo)
      .then((answer) => {
        if (!answer?.url) throw new Error('The checkout could not be started.');
        const plan = parsePlanKey(planKey);
        if (plan) rememberCheckout(plan);
        navigateAway(answer.url);
      })
      .catch((error: unknown) => {
        const failed = {
          title: checkoutErrorTitle(error),
          message: error instanceof Error && error.message ? error.message : 'Please try again.',
        };
        errorToast(failed.title, failed.message);
        setFailure(failed);
      });
  }, [attempt, planKey, promo, navigate]);

  if (!failure) return <Spinner label="Starting your secure checkout" />;
  return (
    <section className="page page--center">
      <h1>{failure.title}</h1>
      <p className="muted">{failure.message}</p>
      <div className="links-row">
        <button
          type="button"
          className="button button--primary"
          onClick={() => {
            setFailure(null);
            setAttempt((a) => a + 1);
          }}
        >
          Try Again
        </button>
        <Link to="/pricing" className="button button--outline">
          Back to Pricing
        </Link>
      </div>
    </section>
  );
}
