/** What the `error` query of /auth means, in the words the person sees. */
const AUTH_QUERY_ERRORS: Record<string, string> = {
  oauth_error: 'Google authentication was cancelled or failed',
  no_code: 'No authorization code received from Google',
  invalid_user: 'Could not verify Google account',
  callback_failed: 'Google sign-in failed. Please ensure you have configured the redirect URI in Google Cloud Console',
};

export function authQueryErrorText(code: string): string {
  return AUTH_QUERY_ERRORS[code] ?? 'Authentication failed';
}

export const GOOGLE_SIGN_IN_FAILED = 'Google sign-in failed. Please try again.';
export const POST_LOGIN_DELAY_MS = 100;
export const CALLBACK_REDIRECT_DELAY_MS = 300;
