import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/auth-context';
import { toast } from '../../components/toast/toast-store';
import { deleteOwnAccount, messageOf } from './account-care-api';
import { Field, FormError } from '../../components/Field';

/** /account's last card: the person deletes their own account, with their password and the word DELETE. */
export function DeleteAccount() {
  const { forceLogout } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    if (typed.trim() !== 'DELETE') return setError('Type DELETE to confirm that your account should be deleted');
    if (!password) return setError('Your password is required to delete your account');
    setBusy(true);
    try {
      const answer = await deleteOwnAccount(password, 'DELETE');
      forceLogout();
      toast({ title: 'Account deleted', description: answer.message });
      navigate('/', { replace: true });
    } catch (caught) {
      setError(messageOf(caught, 'Please try again.'));
      setBusy(false);
    }
  };

  return (
    <article className="card card--danger" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete Account</h2>
      <p className="muted">
        This deletes your account, your tokens and your images for good, and stops any subscription from renewing. It
        cannot be undone.
      </p>
      <form className="stack-form" onSubmit={submit} noValidate>
        <Field
          label="Your password"
          type="password"
          name="delete-password"
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
        />
        <Field
          label="Type DELETE to confirm"
          type="text"
          name="delete-confirmation"
          autoComplete="off"
          value={typed}
          onValue={setTyped}
        />
        <FormError message={error} />
        <button type="submit" className="button button--danger" disabled={busy}>
          {busy ? 'Deleting…' : 'Delete my account'}
        </button>
      </form>
    </article>
  );
}
