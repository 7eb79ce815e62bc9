// Tickets for GET /api/payments/create-locked-image-payment: a browser navigation cannot carry a
// bearer header, and an access token in a URL ends up in logs and history. A ticket names one
// user and one image, lasts a few minutes and is good for nothing else (its key is derived for
// this purpose alone).
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

export const PAYMENT_TICKET_SECONDS = 300;

export interface PaymentTicket {
  userId: string;
  imageId: string;
}

/** `<base64url(userId.imageId.expires.nonce)>.<HMAC>`. */
export function paymentTickets(urlKey: Buffer, clock: () => Date = () => new Date()) {
  const key = createHmac('sha256', urlKey).update('flatlay locked image payment ticket v1').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  return {
    issue(t: PaymentTicket): string {
      const expires = Math.floor(clock().getTime() / 1000) + PAYMENT_TICKET_SECONDS;
      const payload = Buffer.from(`${t.userId}.${t.imageId}.${expires}.${randomUUID()}`).toString('base64url');
      return `${payload}.${mac(payload)}`;
    },
    /** What a ticket names, or undefined when it is forged, malformed or expired. */
    check(ticket: string): PaymentTicket | undefined {
      const [payload, sig, extra] = ticket.split('.');
      if (!payload || !sig || extra !== undefined) return undefined;
      const expected = Buffer.from(mac(payload));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const [userId, imageId, expires] = Buffer.from(payload, 'base64url').toString().split('.');
      if (!userId || !imageId || !(Number(expires) * 1000 > clock().getTime())) return undefined;
      return { userId, imageId };
    },
  };
}
