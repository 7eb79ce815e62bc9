import { enqueueMail, escapeHtml, type MailMessage, type QueuedMail, type Queryable } from '@flatlay/platform';
import { contactOf } from '../adapters/user-contacts.js';

/** Money as a receipt shows it: 9.99 USD. */
const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/**
 * A receipt for a user's payment, queued in the transaction that records the payment (so a
 * payment and its receipt commit together, and a redelivered webhook, which records nothing, sends
 * nothing). No address known (a user billing never heard of): no receipt.
 */
export async function queueReceipt(
  tx: Queryable,
  r: { userId: string; paymentId: string; what: string; amountCents: number; currency: string; paidAt: Date },
): Promise<void> {
  if (!r.userId) return;
  const email = await contactOf(tx, r.userId);
  if (!email) return;
  await enqueueMail(tx, {
    kind: 'payment-receipt',
    recipient: email,
    params: {
      paymentId: r.paymentId,
      what: r.what,
      amount: money(r.amountCents, r.currency),
      paidAt: r.paidAt.toISOString(),
    },
  });
}

/**
 * A guest's paid unlock: the link that opens the paid result later (ADR 0107's return address,
 * the enhancement id its capability), to the address the guest gave the provider. None given: none sent.
 */
export async function queueGuestResultLink(
  tx: Queryable,
  r: { email: string; enhancementId: string; amountCents: number; currency: string },
): Promise<void> {
  if (!r.email || !r.enhancementId) return;
  await enqueueMail(tx, {
    kind: 'guest-result-link',
    recipient: r.email,
    params: { enhancementId: r.enhancementId, amount: money(r.amountCents, r.currency) },
  });
}

/** Renders billing's queued messages when they are sent; links lead to `publicBaseUrl`. */
export function receiptMailRenderer(publicBaseUrl: string) {
  const base = publicBaseUrl.replace(/\/$/, '');
  return async (mail: QueuedMail): Promise<MailMessage | undefined> => {
    const p = mail.params;
    if (mail.kind === 'guest-result-link') {
      const url = `${base}/?payment=success&enhancement_id=${encodeURIComponent(p.enhancementId ?? '')}`;
      const lines = [
        `Thank you for your payment of ${p.amount ?? ''}. Your full-resolution image is unlocked.`,
        'Keep this message: the link below opens your image again at any time, in any browser. Anyone with the link can see the image.',
      ];
      return {
        to: mail.recipient,
        subject: 'Your Flatlay image is unlocked',
        text: [...lines, `Open my image: ${url}`, '— Flatlay'].join('\n\n'),
        html: [
          ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
          `<p><a href="${escapeHtml(url)}">Open my image</a></p>`,
          '<p>— Flatlay</p>',
        ].join('\n'),
      };
    }
    if (mail.kind !== 'payment-receipt') throw new Error(`unknown billing mail kind ${mail.kind}`);
    const lines = [
      'Thank you for your payment. This is your receipt.',
      `${p.what ?? 'Payment'}: ${p.amount ?? ''}`,
      `Paid on ${new Date(p.paidAt ?? '').toUTCString()}. Reference: ${p.paymentId ?? ''}.`,
    ];
    return {
      to: mail.recipient,
      subject: `Your Flatlay receipt: ${p.what ?? 'payment'}`,
      text: [...lines, '— Flatlay'].join('\n\n'),
      html: [...lines.map((l) => `<p>${escapeHtml(l)}</p>`), '<p>— Flatlay</p>'].join('\n'),
    };
  };
}
