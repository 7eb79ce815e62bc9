import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { login, register } from '../../api/endpoints';
import { useAuth } from '../../auth/auth-context';
import { errorToast, toast } from '../../components/toast/toast-store';
import { SIGN_UP_CONSENT_VERSION } from '../../lib/consent';
import { trackPixel } from '../../lib/pixels';
import { ConsentLine } from './ConsentLine';
import { Field } from '../../components/Field';

export type EmailMode = 'signin' | 'signup';

export function EmailAuthForm(props: {
  mode: EmailMode;
  onBack: () => void;
  onStart: () => void;
  onSignedIn: () => void;
}) {
  const { completeSignIn } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const signup = props.mode === 'signup';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      errorToast('Error', 'Please fill in all fields');
      return;
    }
    setBusy(true);
    props.onStart();
    try {
      const credentials = { email: email.trim(), password };
      const session = await (signup
        ? register({ ...credentials, consent_version: SIGN_UP_CONSENT_VERSION })
        : login(credentials));
      await completeSignIn(session);
      toast({ title: signup ? 'Account created successfully!' : 'Signed in successfully!' });
      if (signup) trackPixel('CompleteRegistration');
      props.onSignedIn();
    } catch (error) {
      errorToast(
        signup ? 'Sign Up Error' : 'Sign In Error',
        error instanceof Error && error.message ? error.message : 'Authentication failed',
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h1>{signup ? 'Create your account' : 'Welcome back'}</h1>
      <p className="muted">{signup ? 'Start with 200 free tokens: that is 2 images.' : 'Sign in to your account.'}</p>
      <Field label="Email" type="email" name="email" autoComplete="email" value={email} onValue={setEmail} />
      <Field
        label="Password"
        type="password"
        name="password"
        autoComplete={signup ? 'new-password' : 'current-password'}
        minLength={signup ? 8 : undefined}
        value={password}
        onValue={setPassword}
      />
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {busy ? 'Please wait...' : signup ? 'Create Account' : 'Sign In'}
      </button>
      {signup ? (
        <ConsentLine />
      ) : (
        <Link to="/auth/forgot-password" className="auth-form__forgot">
          Forgot password?
        </Link>
      )}
      <button type="button" className="button button--ghost button--block" onClick={props.onBack}>
        Back to options
      </button>
    </form>
  );
}
