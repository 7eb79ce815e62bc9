import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/http';
import { errorToast, toast } from '../../components/toast/toast-store';
import { adminLogin } from './admin-api';
import { storeAdminToken } from './admin-session';

/**
 * Admin Authentication: opens while there is no admin session (none yet, logged out, or refused
 * by a 401/403). It cannot be dismissed; the only ways out are signing in or leaving the page.
 */
export function AdminLoginDialog({
  open,
  onSignedIn,
  onCancel,
}: {
  open: boolean;
  onSignedIn?: () => void;
  /** Where the dialog may be dismissed (the settings page), what dismissing does. */
  onCancel?: () => void;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      errorToast('Missing credentials', 'Please enter both email and password');
      return;
    }
    setBusy(true);
    try {
      const answer = await adminLogin(email.trim(), password);
      storeAdminToken(answer.access_token);
      setPassword('');
      toast({ title: 'Admin login successful', description: 'Welcome to the admin dashboard' });
      onSignedIn?.();
    } catch (error) {
      if (error instanceof ApiError) errorToast('Login failed', error.message || 'Invalid admin credentials');
      else errorToast('Login error', 'An error occurred during login. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onCancel?.()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          onEscapeKeyDown={(e) => !onCancel && e.preventDefault()}
          onPointerDownOutside={(e) => !onCancel && e.preventDefault()}
        >
          <Dialog.Title>Admin Authentication</Dialog.Title>
          <Dialog.Description className="muted">
            Sign in with an administrator account to open the dashboard.
          </Dialog.Description>
          {/* noValidate: the form's own check shows the 'Missing credentials' toast the spec asks for. */}
          <form className="admin-login" onSubmit={submit} noValidate>
            <label className="field">
              Email
              <input
                type="email"
                name="username"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </label>
            <label className="field">
              Password
              <input
                type="password"
                name="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            <div className="dialog__actions">
              {onCancel ? (
                <button type="button" className="button button--ghost" onClick={onCancel}>
                  Cancel
                </button>
              ) : (
                <Link to="/" className="button button--ghost">
                  Back to Home
                </Link>
              )}
              <button type="submit" className="button button--primary" disabled={busy}>
                {busy ? 'Signing in…' : 'Sign In'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
