import { type FormEvent, useState } from 'react';
import { login, register } from '../../api/endpoints';
import { useAuth } from '../../auth/auth-context';
import { errorToast, toast } from '../../components/toast/toast-store';
import { SIGN_UP_CONSENT_VERSION } from '../../lib/consent';
import { trackPixel } from '../../lib/pixels';
import { ConsentLine } from '../auth/ConsentLine';

/** The subscribe page's own sign-in or create-account form, so a visitor never leaves the order. */
export function InlineSignIn() {
  const { completeSignIn } = useAuth();
  const [mode, setMode] = useState<'signin' | 'signup'>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const signup = mode === 'signup';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      errorToast('Error', 'Please fill in all fields');
      return;
    }
    setBusy(true);
    try {
      const credentials = { email: email.trim(), password };
      const session = await (signup
        ? register({ ...credentials, consent_version: SIGN_UP_CONSENT_VERSION })
        : login(credentials));
      await completeSignIn(session);
      toast({ title: signup ? 'Account created successfully!' : 'Signed in successfully!' });
      if (signup) trackPixel('CompleteRegistration');
    } catch (error) {
      errorToast(
        signup ? 'Sign Up Error' : 'Sign In Error',
        error instanceof Error && error.message ? error.message : 'Authentication failed',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="credits-form" onSubmit={submit} noValidate aria-labelledby="inline-auth-title">
      <h2 id="inline-auth-title">{signup ? 'Create an account to subscribe' : 'Sign in to subscribe'}</h2>
      <label className="field">
        Email
        <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label className="field">
        Password
        <input
          type="password"
          autoComplete={signup ? 'new-password' : 'current-password'}
          required
          minLength={signup ? 8 : undefined}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {busy ? 'Please wait...' : signup ? 'Create Account' : 'Sign In'}
      </button>
      {signup && <ConsentLine />}
      <button
        type="button"
        className="button button--ghost button--block"
        onClick={() => setMode(signup ? 'signin' : 'signup')}
      >
        {signup ? 'I already have an account' : 'Create a new account'}
      </button>
    </form>
  );
}
