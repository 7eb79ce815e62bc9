// The user list comes from analytics' read model, which follows the ledger and identity a moment
// later. An operator who just added credits or deleted a user must not see the old row come back
// on the refresh that follows: the change the server confirmed is shown until the list agrees
// (or two minutes pass, when the list is trusted again).
import type { UserPage } from './user-search';

const TTL_MS = 120_000;
const balances = new Map<string, { balance: number; at: number }>();
const deleted = new Map<string, number>();
const unlimited = new Map<string, { unlimited: boolean; at: number }>();

/** The unlimited plan granted (true) or revoked (false), shown until the list agrees. */
export function rememberUnlimited(email: string, value: boolean, now = Date.now()): void {
  unlimited.set(email.toLowerCase(), { unlimited: value, at: now });
}

export function rememberBalance(email: string, balance: number, now = Date.now()): void {
  balances.set(email.toLowerCase(), { balance, at: now });
}

export function rememberDeleted(email: string, now = Date.now()): void {
  deleted.set(email.toLowerCase(), now);
}

export function forgetPendingChanges(): void {
  balances.clear();
  deleted.clear();
  unlimited.clear();
}

export function withPendingChanges(page: UserPage, now = Date.now()): UserPage {
  for (const [email, entry] of balances) if (now - entry.at > TTL_MS) balances.delete(email);
  for (const [email, at] of deleted) if (now - at > TTL_MS) deleted.delete(email);
  for (const [email, entry] of unlimited) if (now - entry.at > TTL_MS) unlimited.delete(email);
  if (balances.size === 0 && deleted.size === 0 && unlimited.size === 0) return page;
  const users = page.users
    .filter((u) => !deleted.has(u.email.toLowerCase()))
    .map((u) => {
      const plan = unlimited.get(u.email.toLowerCase());
      if (!plan) return u;
      if (plan.unlimited === u.is_unlimited) {
        unlimited.delete(u.email.toLowerCase()); // the read model has caught up
        return u;
      }
      return plan.unlimited
        ? { ...u, is_unlimited: true, subscription_plan: 'unlimited' as const, subscription_status: 'active' }
        : { ...u, is_unlimited: false, subscription_plan: 'none' as const, subscription_status: 'canceled' };
    })
    .map((u) => {
      const pending = balances.get(u.email.toLowerCase());
      if (!pending) return u;
      if (pending.balance === u.token_balance) {
        balances.delete(u.email.toLowerCase()); // the read model has caught up
        return u;
      }
      return { ...u, token_balance: pending.balance };
    });
  const removed = page.users.length - users.length;
  return { ...page, users, total: Math.max(0, page.total - removed) };
}
