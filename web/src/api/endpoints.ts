// One small function per /api call the visitor and customer side makes. The operations the
// OpenAPI document declares go through the typed client (./client: paths, bodies and answers
// checked against the generated types); the others through the raw helper until declared.
import { newActionKey } from './action-key';
import { answerOf, api, signInApi } from './client';
import { apiRequest } from './http';
import type { AnonymousEnhancement, ImagePage, ImageStatusAnswer, Products } from './types';

export const paths = {
  me: '/api/auth/me',
  balance: '/api/tokens/balance',
  tokenHistory: '/api/tokens/',
  products: '/api/payments/products',
  images: '/api/images/',
} as const;

export type Credentials = { email: string; password: string };

export const register = (body: Credentials) => answerOf(signInApi.POST('/auth/register', { body }));
export const login = (body: Credentials) => answerOf(signInApi.POST('/auth/login', { body }));
export const loginWithGoogle = (idToken: string) => answerOf(signInApi.POST('/auth/google', { body: { idToken } }));
/** Logout sends the token it ends explicitly: it is already removed from storage when this runs. */
export const logoutWith = (token: string) =>
  answerOf(api.POST('/auth/logout', { headers: { Authorization: `Bearer ${token}` } }));
export const fetchProfile = (signal?: AbortSignal) => answerOf(api.GET('/auth/me', { signal }));

export const fetchBalance = (signal?: AbortSignal) => answerOf(api.GET('/tokens/balance', { signal }));
export const fetchTokenHistory = (signal?: AbortSignal) => answerOf(api.GET('/tokens/', { signal }));

/** Exchanges an external provider's access token (from the OAuth redirect) for our session. */
export const exchangeSupabaseToken = (accessToken: string) =>
  answerOf(api.POST('/auth/supabase', { body: {}, headers: { Authorization: `Bearer ${accessToken}` } }));

// Not in the document yet: moves to the typed client once its route is declared.
export const fetchProducts = () => apiRequest<Products>(paths.products, { auth: false });

export type CheckoutProductType = 'subscription' | 'payment';

// Not in the document yet: moves to the typed client once its route is declared.
export const createCheckoutSession = (body: {
  price_id: string;
  product_type: CheckoutProductType;
  promo_code?: string;
}) =>
  apiRequest<{ url?: string; message?: string }>('/api/payments/create-checkout-session', {
    json: body,
    idempotencyKey: newActionKey(),
  });

export const fetchImages = (page: number, signal?: AbortSignal): Promise<ImagePage> =>
  answerOf(api.GET('/images/', { params: { query: { page, limit: 12 } }, signal }));
// Not in the document yet: moves to the typed client once its route is declared.
export const fetchImageStatus = (id: string) =>
  apiRequest<ImageStatusAnswer>(`/api/images/status/${encodeURIComponent(id)}`);
// Not in the document yet: moves to the typed client once its route is declared.
export const unlockImageByPayment = (id: string) =>
  apiRequest<{ checkout_url?: string }>(`/api/images/unlock/${encodeURIComponent(id)}`, {
    method: 'POST',
    idempotencyKey: newActionKey(),
  });
// Not in the document yet: moves to the typed client once its route is declared.
export const unlockImageWithTokens = (id: string) =>
  apiRequest<unknown>(`/api/images/unlock-with-tokens/${encodeURIComponent(id)}`, {
    method: 'POST',
    idempotencyKey: newActionKey(),
  });

// Not in the document yet: moves to the typed client once its route is declared.
export const fetchAnonymousStatus = (id: string) =>
  apiRequest<AnonymousEnhancement>(`/api/images/anonymous/status/${encodeURIComponent(id)}`, { auth: false });
// Not in the document yet: moves to the typed client once its route is declared.
export const fetchAnonymousEnhancement = (id: string) =>
  apiRequest<AnonymousEnhancement>(`/api/payments/anonymous-enhancement/${encodeURIComponent(id)}`, {
    auth: false,
  });
// Not in the document yet: moves to the typed client once its route is declared.
export const unlockAnonymousEnhancement = (id: string) =>
  apiRequest<{ success?: boolean; processed_url?: string | null }>(
    `/api/payments/unlock-anonymous-enhancement/${encodeURIComponent(id)}`,
    { method: 'POST', auth: false },
  );
// Not in the document yet: moves to the typed client once its route is declared.
export const createAnonymousPayment = (body: { enhancement_id: string; success_url: string; cancel_url: string }) =>
  apiRequest<{ checkout_url?: string }>('/api/payments/create-anonymous-payment', {
    json: body,
    auth: false,
    idempotencyKey: newActionKey(),
  });
// Not in the document yet: moves to the typed client once its route is declared.
export const unlockAnonymousWithTokens = (id: string) =>
  apiRequest<{ success?: boolean; tokens_used?: number; new_balance?: number; image_url?: string }>(
    `/api/images/unlock-anonymous-with-tokens/${encodeURIComponent(id)}`,
    { method: 'POST', idempotencyKey: newActionKey() },
  );
