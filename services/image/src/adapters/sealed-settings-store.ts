import type { Queryable } from '@flatlay/platform';

// The operator settings the image service keeps (from analytics' SettingsChanged), sealed as
// they arrived: only the generative provider's source opens them (SETTINGS_ENCRYPTION_KEY).

export interface SealedSetting {
  /** iv | tag | ciphertext under SETTINGS_ENCRYPTION_KEY; undefined once the operator cleared it. */
  sealed: Buffer | undefined;
  /** The settings aggregate's version that set it. */
  version: number;
}

/** Keeps a setting unless a newer settings version already did (a late, older event changes nothing): whether it did. */
export async function keepSetting(
  q: Queryable,
  key: string,
  sealed: Buffer | undefined,
  version: number,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO operator_settings (setting_key, sealed, version, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (setting_key) DO UPDATE SET sealed = $2, version = $3, updated_at = $4
     WHERE operator_settings.version < $3`,
    [key, sealed ?? null, version, at],
  );
  return rowCount === 1;
}

/** The setting as kept; undefined when no SettingsChanged ever named it. */
export async function settingOf(q: Queryable, key: string): Promise<SealedSetting | undefined> {
  const { rows } = await q.query<{ sealed: Buffer | null; version: string }>(
    'SELECT sealed, version FROM operator_settings WHERE setting_key = $1',
    [key],
  );
  const r = rows[0];
  return r ? { sealed: r.sealed ?? undefined, version: Number(r.version) } : undefined;
}
