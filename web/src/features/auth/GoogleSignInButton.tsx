import { useState } from 'react';
import { loginWithGoogle } from '../../api/endpoints';
import { useAuth } from '../../auth/auth-context';
import { GOOGLE_SIGN_IN_FAILED } from '../../auth/auth-errors';
import { requestGoogleCredential } from '../../auth/google-identity';
import { errorToast, toast } from '../../components/toast/toast-store';
import { SIGN_UP_CONSENT_VERSION } from '../../lib/consent';
import { trackPixel } from '../../lib/pixels';
import { googleClientId, useWebConfig } from '../../lib/runtime-config';
import { isGoogleSignUp } from './google-sign-up';

/** Continue with Google: offered when this deployment has a Google client id, explained when not. */
export function GoogleSignInButton({ onStart, onSignedIn }: { onStart: () => void; onSignedIn: () => void }) {
  const { completeSignIn } = useAuth();
  const [busy, setBusy] = useState(false);
  useWebConfig();
  const clientId = googleClientId();

  if (!clientId)
    return (
      <div className="google-unavailable">
        <button type="button" className="button button--outline button--block" disabled aria-describedby="google-note">
          Continue with Google
        </button>
        <p id="google-note" className="muted small">
          Google sign-in is not configured on this server. Please sign in with your email.
        </p>
      </div>
    );

  const signIn = async () => {
    setBusy(true);
    onStart();
    try {
      const credential = await requestGoogleCredential(clientId);
      // The consent line sits beside this button: a first sign-in creates the account with it.
      const session = await loginWithGoogle(credential, SIGN_UP_CONSENT_VERSION);
      if (!session?.access_token) throw new Error('Backend did not return access token');
      await completeSignIn(session);
      toast({ title: 'Signed in successfully!' });
      if (session.user && isGoogleSignUp(session.user, Date.now())) trackPixel('CompleteRegistration');
      onSignedIn();
    } catch (error) {
      console.error('Google sign-in failed:', error);
      errorToast('Authentication Failed', GOOGLE_SIGN_IN_FAILED);
    } finally {
      setBusy(false);
    }
  };

  return (
    <button type="button" className="button button--outline button--block" onClick={signIn} disabled={busy}>
      <GoogleMark /> {busy ? 'Please wait...' : 'Continue with Google'}
    </button>
  );
}

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true">
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9 3.5l6.7-6.7C35.6 2.4 30.2 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.8 6C12.4 13.7 17.7 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.5 5.8c4.4-4 7.1-10 7.1-17.5z"
      />
      <path
        fill="#FBBC05"
        d="M10.5 28.7A14.5 14.5 0 0 1 9.5 24c0-1.6.3-3.2.8-4.7l-7.8-6A24 24 0 0 0 0 24c0 3.9.9 7.5 2.6 10.7l7.9-6z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.5-5.8c-2.1 1.4-4.8 2.3-8.4 2.3-6.3 0-11.6-4.2-13.5-10l-7.9 6C6.5 42.6 14.6 48 24 48z"
      />
    </svg>
  );
}
