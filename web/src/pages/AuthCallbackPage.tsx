import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { exchangeSupabaseToken } from '../api/endpoints';
import { useAuth } from '../auth/auth-context';
import { CALLBACK_REDIRECT_DELAY_MS } from '../auth/auth-errors';
import { Spinner } from '../components/Spinner';
import { errorToast } from '../components/toast/toast-store';

/** The provider's access token, as an OAuth implicit redirect puts it in the URL fragment. */
function providerTokenFromHash(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('access_token');
}

/** Where an external sign-in comes back: finishes the session, then home (or back to /auth). */
export default function AuthCallbackPage() {
  const navigate = useNavigate();
  const { authUser, loading, completeSignIn } = useAuth();
  const done = useRef(false);

  useEffect(() => {
    if (loading || done.current) return;
    done.current = true;
    const finish = async () => {
      const providerToken = providerTokenFromHash(window.location.hash);
      if (providerToken) {
        const session = await exchangeSupabaseToken(providerToken);
        await completeSignIn(session);
      } else if (!authUser) {
        throw new Error('No authentication session found');
      }
      setTimeout(() => navigate('/', { replace: true }), CALLBACK_REDIRECT_DELAY_MS);
    };
    finish().catch((error: unknown) => {
      errorToast('Authentication Error', error instanceof Error ? error.message : 'No authentication session found');
      navigate('/auth', { replace: true });
    });
  }, [loading, authUser, completeSignIn, navigate]);

  return (
    <section className="page page--center">
      <Spinner label="Completing sign-in" />
      <p>Completing sign-in…</p>
    </section>
  );
}
