import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { authQueryErrorText, POST_LOGIN_DELAY_MS } from '../auth/auth-errors';
import { errorToast } from '../components/toast/toast-store';
import { ConsentLine } from '../features/auth/ConsentLine';
import { EmailAuthForm, type EmailMode } from '../features/auth/EmailAuthForm';
import { GoogleSignInButton } from '../features/auth/GoogleSignInButton';
import { goToCheckout } from '../features/pricing/checkout';
import { intentFromQuery } from '../lib/checkout-intent';
import { useHydrated } from '../lib/hydrated';

export default function AuthPage() {
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const { authUser, loading } = useAuth();
  // The build prerenders /auth without a query (ADR 0714): what the address asks for shows once
  // React owns the page, so hydration meets the build's chooser.
  const hydrated = useHydrated();
  // ?mode=signup (the Free card) or ?mode=signin (after a password reset) opens the e-mail form at once.
  const asked = hydrated ? query.get('mode') : null;
  // undefined: as the address asks; null: the chooser (Back); else the form the visitor chose.
  const [chosen, setMode] = useState<EmailMode | null>();
  const mode = chosen === undefined ? (asked === 'signup' || asked === 'signin' ? asked : null) : chosen;
  // A sign-in made on this page moves on by itself (after a short pause); the effect below is for
  // someone who arrives here already signed in.
  const signingIn = useRef(false);
  const intent = hydrated ? intentFromQuery(query) : null;

  const startSignIn = () => {
    signingIn.current = true;
  };
  const continueAfterSignIn = () => {
    setTimeout(() => {
      if (intent) void goToCheckout(intent.price_id, intent.checkout_type);
      else navigate('/', { replace: true });
    }, POST_LOGIN_DELAY_MS);
  };

  const errorCode = query.get('error');
  useEffect(() => {
    if (errorCode) errorToast('Authentication Error', authQueryErrorText(errorCode));
  }, [errorCode]);

  useEffect(() => {
    if (loading || !authUser || signingIn.current) return;
    signingIn.current = true;
    if (intent) void goToCheckout(intent.price_id, intent.checkout_type);
    else navigate('/', { replace: true });
  }, [loading, authUser, intent, navigate]);

  return (
    <section className="page page--narrow auth-page">
      {intent && (
        <p className="notice">
          Sign in to continue your purchase of <strong>{intent.product_name}</strong>.
        </p>
      )}
      {mode ? (
        <EmailAuthForm
          mode={mode}
          onBack={() => setMode(null)}
          onStart={startSignIn}
          onSignedIn={continueAfterSignIn}
        />
      ) : (
        <div className="auth-chooser">
          <h1>Get started with Flatlay</h1>
          <p className="muted">Sign in or create an account. New accounts get 200 free tokens.</p>
          <GoogleSignInButton onStart={startSignIn} onSignedIn={continueAfterSignIn} />
          <p className="divider" aria-hidden="true">
            or
          </p>
          <button type="button" className="button button--primary button--block" onClick={() => setMode('signin')}>
            Sign In
          </button>
          <button type="button" className="button button--outline button--block" onClick={() => setMode('signup')}>
            Sign Up
          </button>
          <ConsentLine />
          <Link to="/" className="button button--ghost button--block">
            Back to Home
          </Link>
        </div>
      )}
    </section>
  );
}
