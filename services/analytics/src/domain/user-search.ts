// What an operator's search box and filters mean, as data the query layer turns into SQL. Pure.

/** What a search asks for: any field containing text, one field, or nothing at all. */
export type UserSearch =
  | { kind: 'all' }
  | { kind: 'text'; text: string }
  | { kind: 'email' | 'name' | 'status' | 'date'; text: string }
  | { kind: 'plan'; plan: string }
  | { kind: 'tokens'; tokens: number }
  | { kind: 'created'; from: Date; to: Date }
  | { kind: 'nothing' };

const FIELDS: Record<string, 'email' | 'name' | 'plan' | 'tokens' | 'status' | 'date'> = {
  email: 'email',
  name: 'name',
  plan: 'plan',
  tokens: 'tokens',
  balance: 'tokens',
  status: 'status',
  date: 'date',
  created: 'date',
};

/**
 * Reads the search box: blank is everything; `field:value` searches one field (an unknown field
 * matches nothing, so a typo never silently widens the result); anything else is free text,
 * matched case-insensitively against every searchable part of a user.
 */
export function parseUserSearch(raw: string | undefined): UserSearch {
  const q = (raw ?? '').trim().toLowerCase();
  if (!q) return { kind: 'all' };
  const colon = q.indexOf(':');
  // An e-mail address or a time has no field name before a colon that we know; only a
  // word-only prefix is read as a field name.
  if (colon > 0 && /^[a-z_]+$/.test(q.slice(0, colon))) {
    const field = FIELDS[q.slice(0, colon)];
    const value = q.slice(colon + 1).trim();
    if (!field) return { kind: 'nothing' };
    if (!value) return { kind: 'all' };
    if (field === 'tokens')
      return /^\d{1,15}$/.test(value) ? { kind: 'tokens', tokens: Number(value) } : { kind: 'nothing' };
    if (field === 'date') {
      const range = isoDateRange(value);
      if (range) return { kind: 'created', ...range };
    }
    if (field === 'plan') return { kind: 'plan', plan: value === 'free' || value === 'no plan' ? 'none' : value };
    return { kind: field, text: value };
  }
  return { kind: 'text', text: q };
}

/**
 * An ISO year, month or day (2024, 2024-03, 2024-03-14) as the UTC range of sign-up times it
 * names: the same users as the date-text match, found by the sign-up time's index instead.
 */
export function isoDateRange(value: string): { from: Date; to: Date } | undefined {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), m[2] ? Number(m[2]) : undefined, m[3] ? Number(m[3]) : undefined];
  if (mo !== undefined && (mo < 1 || mo > 12)) return undefined;
  if (d !== undefined && (d < 1 || d > 31)) return undefined;
  const from = new Date(Date.UTC(y, (mo ?? 1) - 1, d ?? 1));
  const to =
    d !== undefined
      ? new Date(Date.UTC(y, mo! - 1, d + 1))
      : mo !== undefined
        ? new Date(Date.UTC(y, mo, 1))
        : new Date(Date.UTC(y + 1, 0, 1));
  return { from, to };
}

export const planFilters = ['all', 'lite', 'studio', 'unlimited', 'none'] as const;
export const signupFilters = ['all', '7', '30', '90'] as const;
export const balanceFilters = ['all', 'high', 'medium', 'low', 'zero'] as const;
export type PlanFilter = (typeof planFilters)[number];
export type SignupFilter = (typeof signupFilters)[number];
export type BalanceFilter = (typeof balanceFilters)[number];

/** Token balance bands of the admin table: high ≥ 100, medium 10-99, low 1-9, zero. */
export function balanceBand(filter: BalanceFilter): { min?: number; max?: number } {
  switch (filter) {
    case 'high':
      return { min: 100 };
    case 'medium':
      return { min: 10, max: 99 };
    case 'low':
      return { min: 1, max: 9 };
    case 'zero':
      return { max: 0 };
    default:
      return {};
  }
}

export interface UserListQuery {
  search: UserSearch;
  plan: PlanFilter;
  signupDays?: number;
  balance: { min?: number; max?: number };
  page: number;
  pageSize: number;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** Checks and normalises a list request; the message names the parameter and its values. */
export function userListQuery(input: {
  q?: string;
  plan?: string;
  signup?: string;
  balance?: string;
  page?: number;
  pageSize?: number;
}): UserListQuery | { invalid: string } {
  const plan = (input.plan || 'all').toLowerCase();
  const signup = input.signup || 'all';
  const balance = (input.balance || 'all').toLowerCase();
  if (!(planFilters as readonly string[]).includes(plan))
    return { invalid: `plan must be one of ${planFilters.join(', ')}` };
  if (!(signupFilters as readonly string[]).includes(signup))
    return { invalid: `signup must be one of ${signupFilters.join(', ')}` };
  if (!(balanceFilters as readonly string[]).includes(balance))
    return { invalid: `balance must be one of ${balanceFilters.join(', ')}` };
  const page = input.page || 1;
  const pageSize = input.pageSize || DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(page) || page < 1) return { invalid: 'page must be an integer of at least 1' };
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    return { invalid: `page_size must be an integer between 1 and ${MAX_PAGE_SIZE}` };
  return {
    search: parseUserSearch(input.q),
    plan: plan as PlanFilter,
    signupDays: signup === 'all' ? undefined : Number(signup),
    balance: balanceBand(balance as BalanceFilter),
    page,
    pageSize,
  };
}
