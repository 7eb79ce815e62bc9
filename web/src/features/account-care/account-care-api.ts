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

export const deleteOwnAccount = (password: string, confirmation: 'DELETE') =>
  answerOf(api.POST('/auth/delete-account', { body: { password, confirmation } }));

/** Tokens read on this page load, by path: a page remounted (the session check, a lazy chunk) finds its token again. */
const takenTokens = new Map<string, string>();

/**
 * The token of an e-mailed link (`…#token=…`). The fragment is then removed from the address bar
 * and the history, so the token is not left behind in the browser.
 */
export function takeLinkToken(): string {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  if (!token) return takenTokens.get(window.location.pathname) ?? '';
  takenTokens.set(window.location.pathname, token);
  window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return token;
}

const usedLinks = new Map<string, Promise<{ message: string }>>();

/** Uses a link once per page load, however often its page mounts: a remount shows the same answer. */
export function linkOnce(token: string, call: (token: string) => Promise<{ message: string }>) {
  let answer = usedLinks.get(token);
  if (!answer) {
    answer = call(token);
    usedLinks.set(token, answer);
  }
  return answer;
}

export const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

/** Starts an export of the caller's data; the link arrives by e-mail (ADR 0403). */
export const requestDataExport = () => answerOf(api.POST('/auth/export'));
