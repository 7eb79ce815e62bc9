import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth/auth-context';
import { Spinner } from '../../components/Spinner';
import { confirmEmailChange, messageOf, takeLinkToken, linkOnce, verifyEmail } from './account-care-api';

const KINDS = {
  verify: { call: verifyEmail, working: 'Verifying your e-mail address', title: 'E-mail address verified' },
  confirm: { call: confirmEmailChange, working: 'Confirming your new e-mail address', title: 'E-mail address changed' },
};

/**
 * /auth/verify-email and /auth/confirm-email: the pages their e-mails open. The link is used once,
 * as soon as the page opens (a second open says it was used and what to do).
 */
export function LinkLandingPage({ kind }: { kind: keyof typeof KINDS }) {
  const { call, working, title } = KINDS[kind];
  const { authUser, refreshProfile } = useAuth();
  const [token] = useState(takeLinkToken);
  const [state, setState] = useState<{ ok?: string; error?: string }>({});

  useEffect(() => {
    if (!token) {
      setState({ error: 'This link is incomplete. Open the link from the e-mail again.' });
      return;
    }
    let live = true;
    linkOnce(token, call).then(
      (answer) => {
        if (!live) return;
        setState({ ok: answer.message });
        if (authUser) void refreshProfile({ force: true });
      },
      (error) => live && setState({ error: messageOf(error, 'Something went wrong. Please try again.') }),
    );
    return () => {
      live = false;
    };
  }, [token, call, authUser, refreshProfile]);

  return (
    <section className="page page--narrow auth-page">
      <div className="auth-form">
        {state.ok ? (
          <>
            <h1>{title}</h1>
            <p role="status">{state.ok}</p>
            <Link to={authUser ? '/account' : '/auth?mode=signin'} className="button button--primary button--block">
              {authUser ? 'Go to my account' : 'Sign in'}
            </Link>
          </>
        ) : state.error ? (
          <>
            <h1>This link did not work</h1>
            <p role="alert">{state.error}</p>
            <Link to={authUser ? '/account' : '/auth?mode=signin'} className="button button--outline button--block">
              {authUser ? 'Go to my account' : 'Sign in'}
            </Link>
          </>
        ) : (
          <Spinner label={working} />
        )}
      </div>
    </section>
  );
}

export const VerifyEmailPage = () => <LinkLandingPage kind="verify" />;
export const ConfirmEmailPage = () => <LinkLandingPage kind="confirm" />;
