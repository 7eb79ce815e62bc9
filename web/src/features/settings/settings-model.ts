// The settings form as data: which keys exist, how they are labelled, what is dirty, and what a
// masked secret means. Pure, so the rules are tested without a page.
import type { KeyStatus } from './settings-api';

export const PAYMENT_KEYS = [
  'stripe_public_key',
  'stripe_lite_price_id',
  'stripe_pro_price_id',
  'stripe_studio_price_id',
  'stripe_agency_price_id',
] as const;

/** The settings labels name their own monthly prices; the subscribe pages' prices are separate. */
const PAYMENT_LABELS: Record<(typeof PAYMENT_KEYS)[number], string> = {
  stripe_public_key: 'Stripe Publishable Key',
  stripe_lite_price_id: 'Lite Plan Price ID ($19/month)',
  stripe_pro_price_id: 'Pro Plan Price ID ($39/month)',
  stripe_studio_price_id: 'Studio Plan Price ID ($79/month)',
  stripe_agency_price_id: 'Agency Plan Price ID ($149/month)',
};

export const isProviderKey = (key: string) => key.endsWith('_api_key');

/** The service a key's Test button checks: the provider's name, or stripe. */
export const serviceOf = (key: string) => (isProviderKey(key) ? key.slice(0, -'_api_key'.length) : 'stripe');

export function labelOf(key: string): string {
  if (key in PAYMENT_LABELS) return PAYMENT_LABELS[key as keyof typeof PAYMENT_LABELS];
  if (isProviderKey(key)) {
    const name = serviceOf(key);
    return `${name.charAt(0).toUpperCase()}${name.slice(1)} API Key`;
  }
  return key;
}

/** A secret as the server shows it: all but its last 4 characters hidden (•, * or x). */
export const isMasked = (value: string) => /^[•*xX]{3,}.{0,4}$/u.test(value) && /[•*]/u.test(value);

/** The config answer as key → value, whatever envelope it comes in (flat, {keys}, {config}, or a list). */
export function normaliseConfig(answer: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const take = (key: unknown, value: unknown) => {
    if (typeof key !== 'string') return;
    if (typeof value === 'string') out[key] = value;
    else if (value === null || value === undefined) out[key] = '';
    else if (typeof value === 'object' && 'value' in value) take(key, (value as { value: unknown }).value);
  };
  if (Array.isArray(answer)) {
    for (const entry of answer) if (entry && typeof entry === 'object') take(entry.key, entry.value);
    return out;
  }
  if (!answer || typeof answer !== 'object') return out;
  const record = answer as Record<string, unknown>;
  for (const envelope of ['keys', 'config', 'settings', 'values'])
    if (record[envelope] && typeof record[envelope] === 'object') return normaliseConfig(record[envelope]);
  for (const [key, value] of Object.entries(record)) take(key, value);
  return out;
}

/** A status entry as read: a status this page does not know (a newer server's) shows as unknown. */
type StatusEntry = { key: string; status: string };

export function normaliseStatus(answer: StatusEntry[] | { keys?: StatusEntry[] } | undefined) {
  const list = Array.isArray(answer) ? answer : (answer?.keys ?? []);
  const known: KeyStatus[] = ['active', 'inactive', 'invalid', 'unknown'];
  return new Map(list.map((e) => [e.key, (known.includes(e.status as KeyStatus) ? e.status : 'unknown') as KeyStatus]));
}

/** The keys of each tab: the provider key(s) the server knows (a default when it names none). */
export function keysOf(config: Record<string, string>, status: Map<string, KeyStatus>, fallbackProvider = 'flatlay') {
  const names = new Set([...Object.keys(config), ...status.keys()]);
  const providers = [...names].filter(isProviderKey).sort();
  return {
    apiKeys: providers.length > 0 ? providers : [`${fallbackProvider}_api_key`],
    // A plan's price id only when the server offers it (it lists the plans the catalogue sells).
    paymentKeys: PAYMENT_KEYS.filter((k) => k === 'stripe_public_key' || names.has(k)) as string[],
  };
}

export const changedKeys = (saved: Record<string, string>, draft: Record<string, string>) =>
  Object.keys(draft).filter((k) => (draft[k] ?? '') !== (saved[k] ?? ''));
