// One small function per /api call the visitor and customer side makes.
import { apiRequest } from './http';
import type {
  AnonymousEnhancement,
  ImagePage,
  ImageStatusAnswer,
  Products,
  Session,
  TokenHistory,
  UserProfile,
} from './types';

export const paths = {
  me: '/api/auth/me',
  balance: '/api/tokens/balance',
  tokenHistory: '/api/tokens/',
  products: '/api/payments/products',
  images: '/api/images/',
} as const;

export type Credentials = { email: string; password: string };

export const register = (c: Credentials) => apiRequest<Session>('/api/auth/register', { json: c, auth: false });
export const login = (c: Credentials) => apiRequest<Session>('/api/auth/login', { json: c, auth: false });
export const loginWithGoogle = (idToken: string) =>
  apiRequest<Session>('/api/auth/google', { json: { idToken }, auth: false });
/** Logout sends the token it ends explicitly: it is already removed from storage when this runs. */
export const logoutWith = (token: string) => apiRequest<unknown>('/api/auth/logout', { method: 'POST', bearer: token });
export const fetchProfile = () => apiRequest<UserProfile>(paths.me);

export const fetchBalance = () => apiRequest<{ balance: number }>(paths.balance);
export const fetchTokenHistory = () => apiRequest<TokenHistory>(paths.tokenHistory);

export const fetchProducts = () => apiRequest<Products>(paths.products, { auth: false });

export type CheckoutProductType = 'subscription' | 'payment';

export const createCheckoutSession = (body: {
  price_id: string;
  product_type: CheckoutProductType;
  promo_code?: string;
}) => apiRequest<{ url?: string; message?: string }>('/api/payments/create-checkout-session', { json: body });

export const fetchImages = (page: number) => apiRequest<ImagePage>(`${paths.images}?page=${page}&limit=12`);
export const fetchImageStatus = (id: string) =>
  apiRequest<ImageStatusAnswer>(`/api/images/status/${encodeURIComponent(id)}`);
export const unlockImageByPayment = (id: string) =>
  apiRequest<{ checkout_url?: string }>(`/api/images/unlock/${encodeURIComponent(id)}`, { method: 'POST' });
export const unlockImageWithTokens = (id: string) =>
  apiRequest<unknown>(`/api/images/unlock-with-tokens/${encodeURIComponent(id)}`, { method: 'POST' });

export const fetchAnonymousStatus = (id: string) =>
  apiRequest<AnonymousEnhancement>(`/api/images/anonymous/status/${encodeURIComponent(id)}`, { auth: false });
export const fetchAnonymousEnhancement = (id: string) =>
  apiRequest<AnonymousEnhancement>(`/api/payments/anonymous-enhancement/${encodeURIComponent(id)}`, {
    auth: false,
  });
export const unlockAnonymousEnhancement = (id: string) =>
  apiRequest<{ success?: boolean; processed_url?: string | null }>(
    `/api/payments/unlock-anonymous-enhancement/${encodeURIComponent(id)}`,
    { method: 'POST', auth: false },
  );
export const createAnonymousPayment = (body: { enhancement_id: string; success_url: string; cancel_url: string }) =>
  apiRequest<{ checkout_url?: string }>('/api/payments/create-anonymous-payment', { json: body, auth: false });
export const unlockAnonymousWithTokens = (id: string) =>
  apiRequest<{ success?: boolean; tokens_used?: number; new_balance?: number; image_url?: string }>(
    `/api/images/unlock-anonymous-with-tokens/${encodeURIComponent(id)}`,
    { method: 'POST' },
  );

/** Exchanges an external provider's access token (from the OAuth redirect) for our session. */
export const exchangeSupabaseToken = (accessToken: string) =>
  apiRequest<Session>('/api/auth/supabase', { method: 'POST', json: {}, bearer: accessToken });
