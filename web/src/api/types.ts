// The shapes of /api answers the web app reads, with the field names of the contract.

export interface UserProfile {
  id: string;
  email: string;
  tokenBalance: number;
  firstName: string | null;
  lastName: string | null;
  name?: string | null;
  avatarUrl: string | null;
  stripeCustomerId?: string | null;
  stripeSubscriptionId?: string | null;
  subscriptionPlan?: string | null;
  subscriptionStatus?: string | null;
  subscriptionPlanName?: string | null;
  subscriptionPeriodEnd?: string | null;
  isUnlimited?: boolean;
}

export interface Session {
  access_token: string;
  token_type?: string;
  user?: UserProfile;
}

export interface TokenTransaction {
  id: string;
  description: string;
  amount: number;
  createdAt: string | null;
}

export interface TokenHistory {
  balance: number;
  transactions: TokenTransaction[];
}

export interface Price {
  price_id: string | null;
  amount: number;
  currency: string;
  display_price?: string;
  savings?: string | number | null;
}

export interface SubscriptionProduct {
  id: string;
  name: string;
  description: string;
  features: string[];
  tokens_per_month: number;
  pricing: { monthly?: Price; yearly?: Price };
}

export interface TokenPack {
  id: string;
  name: string;
  description: string;
  tokens: number;
  amount: number;
  currency: string;
  display_price?: string;
  price_id: string | null;
  per_image_cost?: string | number;
  product_type?: string;
}

export interface Products {
  subscriptions: SubscriptionProduct[];
  token_packs: TokenPack[];
}

export type ImageStatus = 'processing' | 'completed' | 'failed';

export interface ImageRecord {
  id: string;
  image_id?: string;
  status: ImageStatus;
  original_url?: string | null;
  processed_url?: string | null;
  is_locked?: boolean;
  preview_url?: string | null;
  image_url?: string | null;
  createdAt?: string | null;
}

export interface ImagePage {
  images: ImageRecord[];
  pagination: { page: number; total_pages: number; has_prev: boolean; has_next: boolean };
}

/** The answer of POST /api/images/generate: one of three shapes (done, still processing, locked). */
export interface GenerationAnswer {
  success?: boolean;
  image?: ImageRecord;
  tokensUsed?: number;
  newBalance?: number;
  enhancement_id?: string;
  image_id?: string;
  status?: string;
  locked?: boolean;
  is_locked?: boolean;
  preview_url?: string | null;
  image_url?: string | null;
  processed_url?: string | null;
}

export interface ImageStatusAnswer {
  status: string;
  processed_url?: string | null;
  preview_url?: string | null;
  is_locked?: boolean;
  error?: string;
}

export interface AnonymousEnhancement {
  enhancement_id?: string;
  status: 'pending_payment' | 'completed' | 'failed' | string;
  processed_url?: string | null;
  original_url?: string | null;
  preview_url?: string | null;
  is_paid?: boolean;
}
