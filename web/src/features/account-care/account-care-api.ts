// The account-care calls (ADR 0402) through the typed client. Links from e-mail carry their
// token in the address's fragment; the pages post it here.
import { answerOf, api, noTokenApi } from '../../api/client';

export const forgotPassword = (email: string) =>
  answerOf(noTokenApi.POST('/auth/forgot-password', { body: { email } }));

export const resetPassword = (token: string, password: string) =>
  answerOf(noTokenApi.POST('/auth/reset-password', { body: { token, password } }));

export const verifyEmail = (token: string) => answerOf(noTokenApi.POST('/auth/verify-email', { body: { token } }));

export const confirmEmailChange = (token: string) =>
  answerOf(noTokenApi.POST('/auth/confirm-email', { body: { token } }));

export const sendVerificationEmail = () => answerOf(api.POST('/auth/verify-email/send'));

export const changePassword = (currentPassword: string, newPassword: string) =>
  answerOf(
    api.POST('/auth/change-password', { body: { current_password: currentPassword, new_password: newPassword } }),
  );

export const changeEmail = (newEmail: string, password: string) =>
  answerOf(api.POST('/auth/change-email', { body: { new_email: newEmail, password } }));

/**
 * The token of an e-mailed link (`…#token=…`), read once: the fragment is then removed from the
 * address bar and the history, so the token is not left behind in the browser.
 */
export function takeLinkToken(): string {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  if (token) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return token;
}

export const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;
