// Operator settings as the /settings page knows them: which keys exist, which are secret, how a
// value is shown (masked), what a save changes, and each key's status. Pure: no I/O.

export type KeyStatus = 'active' | 'inactive' | 'invalid' | 'unknown';

export interface SettingDefinition {
  key: string;
  /** A secret is stored encrypted and shown masked to its last 4 characters. */
  secret: boolean;
  /** The service whose connection test covers the key. */
  service: string;
  /** Why a value is refused, or undefined when it is acceptable. */
  check(value: string): string | undefined;
}

const MAX_LENGTH = 500;
const MASK = '****';

const plainToken = (what: string) => (value: string) =>
  /^[A-Za-z0-9_\-.:]+$/.test(value) ? undefined : `${what} may hold only letters, digits and _ - . :`;

/** The settings, given the generative provider's name ({product} in {product}_api_key). */
export function settingDefinitions(provider: string): SettingDefinition[] {
  const price = (plan: string): SettingDefinition => ({
    key: `stripe_${plan}_price_id`,
    secret: false,
    service: 'stripe',
    check: plainToken(`stripe_${plan}_price_id`),
  });
  return [
    {
      key: `${provider}_api_key`,
      secret: true,
      service: provider,
      check: (v) => (/\s/.test(v) ? `${provider}_api_key must not contain spaces` : undefined),
    },
    {
      // The publishable key is public by design (browsers receive it), so it is shown in full.
      key: 'stripe_public_key',
      secret: false,
      service: 'stripe',
      check: (v) =>
        /^pk_(test|live)_[A-Za-z0-9_]+$/.test(v) ? undefined : 'stripe_public_key must start with pk_test_ or pk_live_',
    },
    price('lite'),
    price('pro'),
    price('studio'),
    price('agency'),
  ];
}

/** A secret as operators see it: the last 4 characters behind a fixed mask (nothing of a short one). */
export const maskSecret = (value: string): string => (value.length > 8 ? `${MASK}${value.slice(-4)}` : MASK);

/** What the page shows for a stored value. */
export const shownValue = (def: SettingDefinition, stored: { value: string; unreadable?: boolean } | undefined) =>
  stored === undefined ? '' : def.secret ? (stored.unreadable ? MASK : maskSecret(stored.value)) : stored.value;

export interface StoredSetting {
  value: string;
  updatedAt: Date;
  /** A secret sealed under another settings key (or with none configured now): set, but unusable. */
  unreadable?: boolean;
}

export type SettingChange = { key: string; action: 'set'; value: string } | { key: string; action: 'cleared' };

/** Why a save is refused: bad values, settings that do not exist, or a masked value of another key. */
export interface SaveRefusal {
  invalid: string[];
  unknown: string[];
  /** A masked value that is not the stored key's mask: the page showed an older key. */
  stale: string[];
}

/**
 * What a save changes: a value equal to what is shown (a secret's masked form) keeps the stored
 * one; "" clears; anything else is checked and set. Refusals name every problem at once.
 */
export function decideSave(
  defs: SettingDefinition[],
  stored: ReadonlyMap<string, StoredSetting>,
  values: Record<string, string>,
): { changes: SettingChange[]; unchanged: string[] } | { refused: SaveRefusal } {
  const byKey = new Map(defs.map((d) => [d.key, d]));
  const refused: SaveRefusal = { invalid: [], unknown: [], stale: [] };
  const changes: SettingChange[] = [];
  const unchanged: string[] = [];
  for (const [key, raw] of Object.entries(values)) {
    const def = byKey.get(key);
    if (!def) {
      refused.unknown.push(`Unknown setting ${key}; the settings are ${defs.map((d) => d.key).join(', ')}`);
      continue;
    }
    const value = raw.trim();
    const current = stored.get(key);
    if (value === shownValue(def, current) || (current && !current.unreadable && value === current.value)) {
      unchanged.push(key);
      continue;
    }
    if (value === '') {
      changes.push({ key, action: 'cleared' });
      continue;
    }
    if (def.secret && value.startsWith(MASK)) {
      refused.stale.push(`${key} is a masked value that does not match the stored key; enter the whole key`);
      continue;
    }
    if (value.length > MAX_LENGTH) {
      refused.invalid.push(`${key} must be at most ${MAX_LENGTH} characters`);
      continue;
    }
    const why = def.check(value);
    if (why) refused.invalid.push(why);
    else changes.push({ key, action: 'set', value });
  }
  return refused.invalid.length + refused.unknown.length + refused.stale.length ? { refused } : { changes, unchanged };
}

export interface ConnectionOutcome {
  ok: boolean;
  testedAt: Date;
}

/**
 * A key's status: inactive when not set; otherwise what the newest connection test of its service
 * said, if that test ran after the key last changed (active or invalid); else unknown.
 */
export function keyStatus(stored: StoredSetting | undefined, lastTest: ConnectionOutcome | undefined): KeyStatus {
  if (!stored) return 'inactive';
  if (stored.unreadable) return 'invalid';
  if (!lastTest || lastTest.testedAt < stored.updatedAt) return 'unknown';
  return lastTest.ok ? 'active' : 'invalid';
}
