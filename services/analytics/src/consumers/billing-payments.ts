// The seam for billing's payment facts. Billing is being built beside this service; its events
// contract is PaymentSucceeded on billing.payment.v1 (proto/flatlay/events/v1/billing.proto), whose
// `kind` says what was bought. Analytics needs two things from it: which signed-in users paid
// (paid users), and which purchases came from guests (anonymous purchases). Everything billing-
// specific the read models depend on is decoded here, so a change of billing's contract is one file.
import { events, eventTypes } from '@flatlay/proto';

export type PaymentFact =
  | { kind: 'user-payment'; userId: string; paymentId: string; amountCents: number }
  | { kind: 'anonymous-purchase'; paymentId: string; amountCents: number; currency: string };

/** The payment fact of a billing.payment.v1 event, or undefined for anything else. */
export function paymentFactOf(type: string, payload: Uint8Array): PaymentFact | undefined {
  if (type !== eventTypes.PaymentSucceeded) return undefined;
  const e = events.PaymentSucceeded.decode(payload);
  const amountCents = Number(e.amountCents);
  // A guest pays once to unlock an enhancement; billing keys such a payment by payment id and leaves the user empty.
  if (!e.userId || e.kind === 'anonymous_enhancement')
    return { kind: 'anonymous-purchase', paymentId: e.paymentId, amountCents, currency: e.currency };
  return { kind: 'user-payment', userId: e.userId, paymentId: e.paymentId, amountCents };
}
