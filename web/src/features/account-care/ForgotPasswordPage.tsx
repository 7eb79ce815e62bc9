import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { forgotPassword, messageOf } from './account-care-api';
import { Field, FormError } from '../../components/Field';

/** /auth/forgot-password: asks for a reset link; the answer is the same whether or not the address has an account. */
export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState('');
  const [error, setError] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    if (!email.trim()) {
      setError('Please enter the e-mail address you signed up with.');
      return;
    }
    setBusy(true);
    try {
      setSent((await forgotPassword(email.trim())).message);
    } catch (caught) {
      setError(messageOf(caught, 'Something went wrong. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page page--narrow auth-page">
      {sent ? (
        <div className="auth-form">
          <h1>Check your inbox</h1>
          <p role="status">{sent}</p>
          <Link to="/auth?mode=signin" className="button button--outline button--block">
            Back to sign in
          </Link>
        </div>
      ) : (
        <form className="auth-form" onSubmit={submit} noValidate>
          <h1>Forgot your password?</h1>
          <p className="muted">Enter your e-mail address and we will send you a link to choose a new password.</p>
          <Field label="Email" type="email" name="email" autoComplete="email" value={email} onValue={setEmail} />
          <FormError message={error} />
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? 'Sending…' : 'Send reset link'}
          </button>
          <Link to="/auth?mode=signin" className="button button--ghost button--block">
            Back to sign in
          </Link>
        </form>
      )}
    </section>
  );
}
