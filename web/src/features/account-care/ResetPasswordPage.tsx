import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAuth } from '../../auth/auth-context';
import { messageOf, resetPassword, takeLinkToken } from './account-care-api';
import { NewPasswordField } from '../../components/Field';

/** /auth/reset-password#token=…: the page a reset e-mail opens; a new password ends every session. */
export default function ResetPasswordPage() {
  const [token] = useState(takeLinkToken);
  const { authUser, forceLogout } = useAuth();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const [error, setError] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    if (password.length < 8) return setError('Password must be at least 8 characters long');
    if (password !== again) return setError('The two passwords are not the same. Please type them again.');
    setBusy(true);
    try {
      const answer = await resetPassword(token, password);
      // Every session of the account has ended, this browser's too.
      if (authUser) forceLogout();
      setDone(answer.message);
    } catch (caught) {
      setError(messageOf(caught, 'Something went wrong. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  if (!token)
    return (
      <section className="page page--narrow auth-page">
        <div className="auth-form">
          <h1>This link is incomplete</h1>
          <p role="alert">Open the link from the e-mail again, or ask for a new one.</p>
          <Link to="/auth/forgot-password" className="button button--primary button--block">
            Ask for a new link
          </Link>
        </div>
      </section>
    );

  return (
    <section className="page page--narrow auth-page">
      {done ? (
        <div className="auth-form">
          <h1>Password changed</h1>
          <p role="status">{done}</p>
          <Link to="/auth?mode=signin" className="button button--primary button--block">
            Sign in
          </Link>
        </div>
      ) : (
        <form className="auth-form" onSubmit={submit} noValidate>
          <h1>Choose a new password</h1>
          <p className="muted">At least 8 characters. You will be signed out everywhere else.</p>
          <NewPasswordField value={password} onValue={setPassword} />
          <NewPasswordField label="Repeat the new password" name="repeat-password" value={again} onValue={setAgain} />
          {error && (
            <div role="alert">
              <p className="error-text">{error}</p>
              {/expired|already used/.test(error) && <Link to="/auth/forgot-password">Ask for a new link</Link>}
            </div>
          )}
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? 'Saving…' : 'Save new password'}
          </button>
        </form>
      )}
    </section>
  );
}
