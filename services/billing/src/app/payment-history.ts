import type { Queryable } from '@flatlay/platform';
import { paymentsOfUser, subscriptionPeriodsOfUser } from '../adapters/billing-records.js';

/**
 * What a user has paid, for the export of their data (ADR 0403): token packs and unlocks as
 * recorded when their checkout completed, and each subscription period an invoice paid.
 * Read-only and outside any transaction: an export is a snapshot of what was committed.
 */
export async function paymentHistory(db: Queryable, userId: string) {
  const [payments, periods] = await Promise.all([paymentsOfUser(db, userId), subscriptionPeriodsOfUser(db, userId)]);
  return { payments, periods };
}
