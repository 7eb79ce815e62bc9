import { type FormEvent, useState } from 'react';
import { useAuth } from '../../auth/auth-context';
import { errorToast, toast } from '../../components/toast/toast-store';
import { changeEmail, changePassword, messageOf, sendVerificationEmail } from './account-care-api';
import { Field, FormError, NewPasswordField } from '../../components/Field';

/** The notice of an address not yet proven, with a button that sends a fresh link. */
export function VerifyEmailNotice() {
  const { profile } = useAuth();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState('');
  if (profile?.emailVerified !== false) return null;
  const send = async () => {
    setBusy(true);
    try {
      setSent((await sendVerificationEmail()).message);
    } catch (error) {
      errorToast('Could Not Send the E-mail', messageOf(error, 'Please try again in a minute.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="notice account__verify" data-testid="verify-email-notice">
      <p>
        Please confirm your e-mail address: open the link we sent to <strong>{profile.email}</strong>.
      </p>
      {sent ? (
        <p role="status">{sent}</p>
      ) : (
        <button type="button" className="button button--outline" disabled={busy} onClick={send}>
          {busy ? 'Sending…' : 'Send a new link'}
        </button>
      )}
    </div>
  );
}

/** /account's sign-in and security card: change the password, change the e-mail address. */
export function AccountSecurity() {
  const { completeSignIn } = useAuth();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [passwordError, setPasswordError] = useState('');
  const [savingPassword, setSavingPassword] = useState(false);
  const [newEmail, setNewEmail] = useState('');
  const [emailPassword, setEmailPassword] = useState('');
  const [emailError, setEmailError] = useState('');
  const [emailSent, setEmailSent] = useState('');
  const [savingEmail, setSavingEmail] = useState(false);

  const savePassword = async (e: FormEvent) => {
    e.preventDefault();
    setPasswordError('');
    if (!current) return setPasswordError('Please enter your current password.');
    if (next.length < 8) return setPasswordError('Password must be at least 8 characters long');
    setSavingPassword(true);
    try {
      // Every other session ended; this one goes on with the new token.
      await completeSignIn(await changePassword(current, next));
      setCurrent('');
      setNext('');
      toast({ title: 'Password changed', description: 'You have been signed out on every other device.' });
    } catch (error) {
      setPasswordError(messageOf(error, 'Please try again.'));
    } finally {
      setSavingPassword(false);
    }
  };

  const saveEmail = async (e: FormEvent) => {
    e.preventDefault();
    setEmailError('');
    if (!newEmail.trim() || !emailPassword) return setEmailError('Please enter the new address and your password.');
    setSavingEmail(true);
    try {
      setEmailSent((await changeEmail(newEmail.trim(), emailPassword)).message);
      setEmailPassword('');
    } catch (error) {
      setEmailError(messageOf(error, 'Please try again.'));
    } finally {
      setSavingEmail(false);
    }
  };

  return (
    <article className="card" aria-labelledby="security-title">
      <h2 id="security-title">Sign-in and Security</h2>
      <form className="stack-form" onSubmit={savePassword} noValidate aria-labelledby="password-title">
        <h3 id="password-title">Change password</h3>
        <Field
          label="Current password"
          type="password"
          name="current-password"
          autoComplete="current-password"
          value={current}
          onValue={setCurrent}
        />
        <NewPasswordField value={next} onValue={setNext} />
        <FormError message={passwordError} />
        <button type="submit" className="button button--outline" disabled={savingPassword}>
          {savingPassword ? 'Saving…' : 'Change password'}
        </button>
      </form>
      <form className="stack-form" onSubmit={saveEmail} noValidate aria-labelledby="email-title">
        <h3 id="email-title">Change e-mail address</h3>
        <Field
          label="New e-mail address"
          type="email"
          name="new-email"
          autoComplete="email"
          value={newEmail}
          onValue={setNewEmail}
        />
        <Field
          label="Your password"
          type="password"
          name="email-password"
          autoComplete="current-password"
          value={emailPassword}
          onValue={setEmailPassword}
        />
        <FormError message={emailError} />
        {emailSent && <p role="status">{emailSent}</p>}
        <button type="submit" className="button button--outline" disabled={savingEmail}>
          {savingEmail ? 'Sending…' : 'Send confirmation link'}
        </button>
      </form>
    </article>
  );
}
