// One small function per /api call the visitor and customer side makes, each through the typed
// client (./client): paths, bodies and answers are checked against the types generated from the
// gateway's declarations, so a renamed field fails the web app's type check.
import { actionKeyHeader } from './action-key';
import { answerOf, api, noTokenApi } from './client';

export type Credentials = { email: string; password: string };
/** Sign-up sends the version of the consent line the person was shown (recorded with the account). */
export type SignUp = Credentials & { consent_version: string };

export const register = (body: SignUp) => answerOf(noTokenApi.POST('/auth/register', { body }));
export const login = (body: Credentials) => answerOf(noTokenApi.POST('/auth/login', { body }));
/** Google creates the account on a first sign-in: the consent line's version goes with every one. */
export const loginWithGoogle = (idToken: string, consentVersion: string) =>
  answerOf(noTokenApi.POST('/auth/google', { body: { idToken, consent_version: consentVersion } }));
/** Logout sends the token it ends explicitly: it is already removed from storage when this runs. */
export const logoutWith = (token: string) =>
  answerOf(api.POST('/auth/logout', { headers: { Authorization: `Bearer ${token}` } }));
export const fetchProfile = (signal?: AbortSignal) => answerOf(api.GET('/auth/me', { signal }));

export const fetchBalance = (signal?: AbortSignal) => answerOf(api.GET('/tokens/balance', { signal }));
export const fetchTokenHistory = (signal?: AbortSignal) => answerOf(api.GET('/tokens/', { signal }));

/** Exchanges an external provider's access token (from the OAuth redirect) for our session. */
export const exchangeSupabaseToken = (accessToken: string) =>
  answerOf(api.POST('/auth/supabase', { body: {}, headers: { Authorization: `Bearer ${accessToken}` } }));

export const fetchProducts = () => answerOf(noTokenApi.GET('/payments/products'));
/** Whether a generative provider is configured here (advanced prompting), and the instruction's limit. */
export const fetchGenerationOptions = () => answerOf(noTokenApi.GET('/images/options'));

export type CheckoutProductType = 'subscription' | 'payment';

export const createCheckoutSession = (body: {
  price_id: string;
  product_type: CheckoutProductType;
  promo_code?: string;
}) => answerOf(api.POST('/payments/create-checkout-session', { body, params: { header: actionKeyHeader() } }));

export const fetchImages = (page: number, signal?: AbortSignal) =>
  answerOf(api.GET('/images/', { params: { query: { page, limit: 12 } }, signal }));
export const fetchImageStatus = (id: string) => answerOf(api.GET('/images/status/{id}', { params: { path: { id } } }));
export const unlockImageByPayment = (id: string) =>
  answerOf(api.POST('/images/unlock/{id}', { params: { path: { id }, header: actionKeyHeader() } }));

// A guest's try: no stored token is sent (the guest has none; a signed-in visitor's is not needed).
export const fetchAnonymousStatus = (id: string) =>
  answerOf(noTokenApi.GET('/images/anonymous/status/{id}', { params: { path: { id } } }));
export const fetchAnonymousEnhancement = (id: string) =>
  answerOf(noTokenApi.GET('/payments/anonymous-enhancement/{id}', { params: { path: { id } } }));
export const unlockAnonymousEnhancement = (id: string) =>
  answerOf(noTokenApi.POST('/payments/unlock-anonymous-enhancement/{id}', { params: { path: { id } } }));
export const createAnonymousPayment = (body: { enhancement_id: string; success_url: string; cancel_url: string }) =>
  answerOf(noTokenApi.POST('/payments/create-anonymous-payment', { body, params: { header: actionKeyHeader() } }));
/** A guest's try unlocked with the signed-in person's tokens (after they signed in to do so). */
export const unlockAnonymousWithTokens = (id: string) =>
  answerOf(
    api.POST('/images/unlock-anonymous-with-tokens/{id}', { params: { path: { id }, header: actionKeyHeader() } }),
  );
