// The user list comes from analytics' read model, which follows the ledger and identity a moment
// later. An operator who just added credits or deleted a user must not see the old row come back
// on the refresh that follows: the change the server confirmed is shown until the list agrees
// (or two minutes pass, when the list is trusted again).
import type { UserPage } from './user-search';

const TTL_MS = 120_000;
const balances = new Map<string, { balance: number; at: number }>();
const deleted = new Map<string, number>();

export function rememberBalance(email: string, balance: number, now = Date.now()): void {
  balances.set(email.toLowerCase(), { balance, at: now });
}

export function rememberDeleted(email: string, now = Date.now()): void {
  deleted.set(email.toLowerCase(), now);
}

export function forgetPendingChanges(): void {
  balances.clear();
  deleted.clear();
}

export function withPendingChanges(page: UserPage, now = Date.now()): UserPage {
  for (const [email, entry] of balances) if (now - entry.at > TTL_MS) balances.delete(email);
  for (const [email, at] of deleted) if (now - at > TTL_MS) deleted.delete(email);
  if (balances.size === 0 && deleted.size === 0) return page;
  const users = page.users
    .filter((u) => !deleted.has(u.email.toLowerCase()))
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
