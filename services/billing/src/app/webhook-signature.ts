// Stripe's webhook signature scheme, used for Stripe's events and the local provider's alike.
import Stripe from 'stripe';
import { AppError } from '@flatlay/platform';
import type { ProviderEvent } from '../domain/billing-facts.js';

/** The verified event, or INVALID_ARGUMENT: a bad signature changes nothing. */
export function verifyWebhook(payload: Uint8Array, signature: string, secret: string): ProviderEvent {
  try {
    return Stripe.webhooks.constructEvent(Buffer.from(payload), signature, secret) as unknown as ProviderEvent;
  } catch {
    throw new AppError('INVALID_ARGUMENT', 'Invalid webhook signature');
  }
}

/** A Stripe-Signature header for a payload, as Stripe would send it (the local provider, tests). */
export function signWebhook(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
}
