import { call } from '@flatlay/platform';
import { urlSigner } from '@flatlay/files';
import type { ServiceClients } from '../clients.js';

/** How long the archive's link and the file links inside it work (issue 29: 7 days). */
export const EXPORT_TTL_SECONDS = 7 * 24 * 3600;
export const ARCHIVE_FORMAT = 'flatlay-data-export/1';

const iso = (d: Date | undefined) => d?.toISOString() ?? null;

/**
 * A person's data as one JSON document (ADR 0403), gathered from the services that own each part:
 * the profile (identity), the whole token history (ledger), the payments (billing) and every image
 * (image) with links to its files, re-signed to work as long as the archive's own link.
 */
export async function gatherArchive(
  clients: ServiceClients,
  userId: string,
  urlKey: Buffer,
  now: Date,
  /** The site's public address: a link the image service gave as a path is made whole with it. */
  siteUrl: string,
): Promise<Record<string, unknown>> {
  const signer = urlSigner(urlKey);
  // The image service's links work for an hour; the archive's for its 7 days (same key, same paths).
  const longLived = (url: string) => {
    if (!url) return null;
    const parsed = new URL(url, 'http://flatlay.invalid');
    const signed = signer.sign(decodeURIComponent(parsed.pathname), now, EXPORT_TTL_SECONDS);
    return `${parsed.origin === 'http://flatlay.invalid' ? siteUrl : parsed.origin}${signed}`;
  };

  const id = clients.identity();
  const { user } = await call(id, id.getProfile, { userId });
  if (!user) throw new Error(`no profile for ${userId}`);

  const l = clients.ledger();
  const transactions = [];
  let balance = 0;
  for (let offset = 0; ; offset += 100) {
    const page = await call(l, l.listTransactions, { userId, limit: 100, offset });
    balance = Number(page.balance);
    transactions.push(...page.transactions);
    if (page.transactions.length < 100) break;
  }

  const b = clients.billing();
  const paid = await call(b, b.listPayments, { userId });

  const im = clients.image();
  const images = [];
  for (let page = 1; ; page++) {
    const answer = await call(im, im.listImages, { userId, page, limit: 50 });
    images.push(...answer.images);
    if (!answer.pagination?.hasNext) break;
  }

  return {
    format: ARCHIVE_FORMAT,
    exported_at: now.toISOString(),
    links_expire_at: new Date(now.getTime() + EXPORT_TTL_SECONDS * 1000).toISOString(),
    note: 'File links work until links_expire_at, without signing in.',
    profile: {
      id: user.id,
      email: user.email,
      email_verified: user.emailVerified,
      first_name: user.firstName,
      last_name: user.lastName,
      name: user.name,
      role: user.role,
      created_at: iso(user.createdAt),
      subscription_plan: user.subscriptionPlan || null,
      subscription_status: user.subscriptionStatus || null,
    },
    tokens: {
      balance,
      // Oldest first, as they happened.
      history: transactions.reverse().map((t) => ({
        id: t.id,
        description: t.description,
        amount: Number(t.amount),
        balance_after: Number(t.balanceAfter),
        created_at: iso(t.createdAt),
      })),
    },
    payments: paid.payments.map((p) => ({
      id: p.paymentId,
      kind: p.kind,
      pack_name: p.packName || null,
      tokens: p.tokens,
      image_id: p.imageId || null,
      amount_cents: p.amountCents,
      currency: p.currency,
      refunded: p.refunded,
      paid_at: iso(p.paidAt),
    })),
    subscription_periods: paid.subscriptionPeriods.map((s) => ({
      subscription_id: s.subscriptionId,
      plan: s.plan,
      billing_period: s.billingPeriod,
      period_start: iso(s.periodStart),
      period_end: iso(s.periodEnd),
      invoice_id: s.invoiceId || null,
    })),
    images: images.map((i) => ({
      id: i.imageId,
      status: i.status,
      enhancement_type: i.enhancementType,
      locked: i.isLocked,
      created_at: iso(i.createdAt),
      original_url: longLived(i.originalUrl),
      result_url: longLived(i.processedUrl),
      preview_url: longLived(i.previewUrl),
    })),
  };
}
