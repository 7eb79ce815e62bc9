// The shapes of /api answers the web app reads, with the field names of the contract.
import type { JsonAnswer, Schema } from './schema';

// Answers of documented operations: the generated types, never copies (see ./schema).
export type UserProfile = Schema<'User'>;
export type Session = Schema<'Session'>;
export type TokenTransaction = Schema<'Transaction'>;
export type TokenHistory = JsonAnswer<'getTokens', 200>;
export type TokenBalance = JsonAnswer<'getTokensBalance', 200>;

// Answers of operations the document does not declare yet (payments, images): written by hand
// until their routes are declared.

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
