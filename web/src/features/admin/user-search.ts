// The user list's search and filters as the spec states them. The server applies the same rules
// (GET /api/admin/users?q=&plan=&signup=&balance=); these functions are the fallback for a server
// that answers the bare list, and the one place the rules are written down for the client.
import type { AdminUser, BalanceFilter, PlanFilter, SignupFilter } from './admin-api';

export const PAGE_SIZE = 50;
export const MAX_PAGE_BUTTONS = 5;

export type SearchField = 'email' | 'name' | 'plan' | 'tokens' | 'status' | 'date';

export type ParsedSearch =
  | { kind: 'empty' }
  | { kind: 'text'; value: string }
  | { kind: 'field'; field: SearchField; value: string }
  /** A field:value with a field the search does not know: it matches nothing. */
  | { kind: 'unknown-field'; field: string; value: string };

const FIELD_ALIASES: Record<string, SearchField> = {
  email: 'email',
  name: 'name',
  plan: 'plan',
  tokens: 'tokens',
  balance: 'tokens',
  status: 'status',
  date: 'date',
  created: 'date',
};

/** `plan:studio`, `email:ada@` or free text; case-insensitive, surrounding spaces ignored. */
export function parseSearch(input: string): ParsedSearch {
  const text = input.trim().toLowerCase();
  if (!text) return { kind: 'empty' };
  const match = /^([a-z_]+):(.*)$/.exec(text);
  if (!match) return { kind: 'text', value: text };
  const [, name = '', rawValue = ''] = match;
  const value = rawValue.trim();
  const field = FIELD_ALIASES[name];
  return field ? { kind: 'field', field, value } : { kind: 'unknown-field', field: name, value };
}

/** The plan as the list shows and searches it: unlimited wins over the stored plan. */
export function planOf(user: Pick<AdminUser, 'subscription_plan' | 'is_unlimited'>): string {
  if (user.is_unlimited) return 'unlimited';
  return user.subscription_plan || 'none';
}

/** The date parts a search can hit: the ISO date, the year, the month name and the day. */
function dateParts(iso: string): string[] {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return [iso.toLowerCase()];
  const month = date.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' }).toLowerCase();
  return [iso.slice(0, 10), String(date.getUTCFullYear()), month, month.slice(0, 3), String(date.getUTCDate())];
}

function fieldMatches(user: AdminUser, field: SearchField, value: string): boolean {
  switch (field) {
    case 'email':
      return user.email.toLowerCase().includes(value);
    case 'name':
      return user.name.toLowerCase().includes(value);
    case 'plan':
      return planOf(user) === value || planOf(user).includes(value);
    case 'tokens':
      return String(user.token_balance) === value;
    case 'status':
      return (user.subscription_status || 'none').toLowerCase().includes(value);
    case 'date':
      return dateParts(user.created_at).some((part) => part.includes(value));
  }
}

export function matchesSearch(user: AdminUser, search: ParsedSearch): boolean {
  switch (search.kind) {
    case 'empty':
      return true;
    case 'unknown-field':
      return false;
    case 'field':
      return fieldMatches(user, search.field, search.value);
    case 'text':
      return (
        fieldMatches(user, 'email', search.value) ||
        fieldMatches(user, 'name', search.value) ||
        fieldMatches(user, 'plan', search.value) ||
        String(user.token_balance).includes(search.value) ||
        fieldMatches(user, 'status', search.value) ||
        fieldMatches(user, 'date', search.value)
      );
  }
}

export interface UserFilters {
  plan: PlanFilter;
  signup: SignupFilter;
  balance: BalanceFilter;
}

export const NO_FILTERS: UserFilters = { plan: 'all', signup: 'all', balance: 'all' };

/** The balance bands: high 100 or more, medium 10-99, low 1-9, zero 0. */
export function balanceBand(balance: number): Exclude<BalanceFilter, 'all'> {
  if (balance >= 100) return 'high';
  if (balance >= 10) return 'medium';
  if (balance >= 1) return 'low';
  return 'zero';
}

const DAY_MS = 86_400_000;

export function matchesFilters(user: AdminUser, filters: UserFilters, now = Date.now()): boolean {
  if (filters.plan !== 'all' && planOf(user) !== filters.plan) return false;
  if (filters.signup !== 'all') {
    const created = new Date(user.created_at).getTime();
    if (!(now - created <= Number(filters.signup) * DAY_MS)) return false;
  }
  if (filters.balance !== 'all' && balanceBand(user.token_balance) !== filters.balance) return false;
  return true;
}

export const activeFilterCount = (filters: UserFilters) =>
  (Object.keys(filters) as (keyof UserFilters)[]).filter((k) => filters[k] !== 'all').length;

export interface UserPage {
  users: AdminUser[];
  total: number;
  page: number;
  pageSize: number;
  totalExact: boolean;
}

/** The fallback: the whole list searched, filtered and paged here. */
export function pageLocally(
  all: AdminUser[],
  q: string,
  filters: UserFilters,
  page: number,
  pageSize = PAGE_SIZE,
  now = Date.now(),
): UserPage {
  const search = parseSearch(q);
  const hits = all.filter((u) => matchesSearch(u, search) && matchesFilters(u, filters, now));
  const start = (page - 1) * pageSize;
  return { users: hits.slice(start, start + pageSize), total: hits.length, page, pageSize, totalExact: true };
}

export const pageCount = (total: number, pageSize = PAGE_SIZE) => Math.max(1, Math.ceil(total / pageSize));

/** At most five page numbers, centred on the current page where the ends allow. */
export function pageButtons(current: number, pages: number, max = MAX_PAGE_BUTTONS): number[] {
  const count = Math.min(max, pages);
  let first = Math.max(1, current - Math.floor(count / 2));
  first = Math.min(first, pages - count + 1);
  return Array.from({ length: count }, (_, i) => first + i);
}
