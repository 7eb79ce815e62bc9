// The settings store: encrypted secrets, the audit, the test outcomes, and SettingsChanged through
// the outbox, each save in one transaction.
import { events, eventTypes, topics } from '@flatlay/proto';
import { AppError, enqueueOutbox, openSetting, outboxMessage, sealSetting, type Pool } from '@flatlay/platform';
import {
  decideSave,
  keyStatus,
  settingDefinitions,
  shownValue,
  type ConnectionOutcome,
  type KeyStatus,
  type SettingDefinition,
  type StoredSetting,
} from '../domain/setting-rules.js';
import { testGenerativeProvider, testStripe, type ConnectionResult } from './connection-tests.js';
import type { SettingsConfig } from '../config.js';

/** The one settings aggregate's id (the SettingsChanged key on analytics.settings.v1). */
export const SETTINGS_AGGREGATE = 'operator-settings';

interface Row {
  key: string;
  secret: boolean;
  value: string | null;
  sealed: Buffer | null;
  updated_at: Date;
}

export interface SettingView {
  key: string;
  value: string;
  secret: boolean;
  isSet: boolean;
  status: KeyStatus;
  service: string;
  updatedAt: string;
}

export class OperatorSettings {
  readonly definitions: SettingDefinition[];

  constructor(
    private readonly pool: Pool,
    readonly config: SettingsConfig,
    /** The settings key; without it secrets can be neither stored nor read. */
    private readonly key: Buffer | undefined,
  ) {
    this.definitions = settingDefinitions(config.GENERATIVE_PROVIDER);
  }

  get provider(): string {
    return this.config.GENERATIVE_PROVIDER;
  }

  get services(): string[] {
    return [this.provider, 'stripe'];
  }

  get encryptionConfigured(): boolean {
    return Boolean(this.key);
  }

  /** A stored value in clear; undefined when a secret cannot be opened (no key, or another key sealed it). */
  private open(row: Row): string | undefined {
    if (!row.secret) return row.value ?? '';
    if (!this.key) return undefined;
    try {
      return openSetting(this.key, row.key, row.sealed!);
    } catch {
      return undefined;
    }
  }

  private toStored(r: Row): StoredSetting {
    const value = this.open(r);
    return value === undefined
      ? { value: '', updatedAt: r.updated_at, unreadable: true }
      : { value, updatedAt: r.updated_at };
  }

  /** Stored settings in clear (only ever leaves this class masked, or to a provider in a test). */
  private async stored(): Promise<Map<string, StoredSetting>> {
    const { rows } = await this.pool.query<Row>('SELECT key, secret, value, sealed, updated_at FROM operator_settings');
    const known = new Set(this.definitions.map((d) => d.key));
    return new Map(rows.filter((r) => known.has(r.key)).map((r) => [r.key, this.toStored(r)]));
  }

  private async tests(): Promise<Map<string, ConnectionOutcome>> {
    const { rows } = await this.pool.query<{ service: string; ok: boolean; tested_at: Date }>(
      'SELECT service, ok, tested_at FROM operator_settings_tests',
    );
    return new Map(rows.map((r) => [r.service, { ok: r.ok, testedAt: r.tested_at }]));
  }

  async view(): Promise<SettingView[]> {
    const [stored, tests] = await Promise.all([this.stored(), this.tests()]);
    return this.definitions.map((def) => {
      const s = stored.get(def.key);
      return {
        key: def.key,
        value: shownValue(def, s),
        secret: def.secret,
        isSet: Boolean(s),
        status: keyStatus(s, tests.get(def.service)),
        service: def.service,
        updatedAt: s ? s.updatedAt.toISOString() : '',
      };
    });
  }

  /** Saves what changed, audits it and publishes SettingsChanged, all in one transaction. */
  async save(operatorId: string, values: Record<string, string>, now: Date) {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // One save at a time: the decision reads what is stored, and the version counts saves.
      const { rows: v } = await client.query<{ version: string }>(
        'SELECT version FROM operator_settings_version FOR UPDATE',
      );
      const stored = await this.storedIn(client);
      const decision = decideSave(this.definitions, stored, values);
      if ('refused' in decision) {
        // A malformed value is the caller's error (400); a setting that does not exist is 404; a
        // masked value of an older key means the form is out of date (409).
        const { invalid, unknown, stale } = decision.refused;
        if (invalid.length) throw new AppError('INVALID_ARGUMENT', [...invalid, ...unknown, ...stale].join('; '));
        if (unknown.length) throw new AppError('NOT_FOUND', [...unknown, ...stale].join('; '));
        throw new AppError('CONFLICT', stale.join('; '));
      }
      const { changes, unchanged } = decision;
      if (changes.length === 0) {
        await client.query('ROLLBACK');
        return { changed: [], unchanged };
      }
      const defs = new Map(this.definitions.map((d) => [d.key, d]));
      if (!this.key && changes.some((c) => c.action === 'set' && defs.get(c.key)!.secret))
        throw new AppError('NOT_CONFIGURED', 'SETTINGS_ENCRYPTION_KEY is not set: secrets cannot be stored');
      const settings: events.SettingValue[] = [];
      for (const change of changes) {
        const def = defs.get(change.key)!;
        if (change.action === 'cleared') {
          await client.query('DELETE FROM operator_settings WHERE key = $1', [change.key]);
          settings.push({
            key: change.key,
            secret: def.secret,
            value: '',
            encryptedValue: Buffer.alloc(0),
            masked: '',
            cleared: true,
          });
        } else {
          const sealed = def.secret ? sealSetting(this.key!, change.key, change.value) : null;
          await client.query(
            `INSERT INTO operator_settings (key, secret, value, sealed, updated_at, updated_by)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (key) DO UPDATE SET secret = $2, value = $3, sealed = $4, updated_at = $5, updated_by = $6`,
            [change.key, def.secret, def.secret ? null : change.value, sealed, now, operatorId],
          );
          // The event gets its own ciphertext (a fresh IV), never the plaintext of a secret.
          settings.push({
            key: change.key,
            secret: def.secret,
            value: def.secret ? '' : change.value,
            encryptedValue: def.secret ? sealSetting(this.key!, change.key, change.value) : Buffer.alloc(0),
            masked: shownValue(def, { value: change.value }),
            cleared: false,
          });
        }
        await client.query(
          'INSERT INTO operator_settings_audit (operator_id, key, action, occurred_at) VALUES ($1, $2, $3, $4)',
          [operatorId, change.key, change.action, now],
        );
      }
      const version = Number(v[0]!.version) + 1;
      await client.query('UPDATE operator_settings_version SET version = $1', [version]);
      await enqueueOutbox(client, [
        outboxMessage(
          topics.analyticsSettings,
          eventTypes.SettingsChanged,
          events.SettingsChanged,
          { changedBy: operatorId, settings },
          { aggregateId: SETTINGS_AGGREGATE, aggregateVersion: version, occurredAt: now },
        ),
      ]);
      await client.query('COMMIT');
      return { changed: changes.map((c) => c.key), unchanged };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async storedIn(client: Pick<Pool, 'query'>): Promise<Map<string, StoredSetting>> {
    const { rows } = await client.query<Row>('SELECT key, secret, value, sealed, updated_at FROM operator_settings');
    return new Map(rows.map((r) => [r.key, this.toStored(r)]));
  }

  /** Runs the service's connection test with the saved settings and records the outcome (and who ran it). */
  async test(service: string, operatorId: string, now: () => Date): Promise<ConnectionResult> {
    if (!this.services.includes(service))
      throw new AppError('NOT_FOUND', `Unknown service ${service}; the services are ${this.services.join(', ')}`);
    const stored = await this.stored();
    const value = (key: string) => (stored.get(key)?.unreadable ? undefined : stored.get(key)?.value);
    const result =
      service === 'stripe'
        ? await testStripe(this.config, {
            publicKey: value('stripe_public_key'),
            priceIds: this.definitions
              .filter((d) => d.service === 'stripe' && d.key.endsWith('_price_id') && value(d.key))
              .map((d) => [d.key, value(d.key)!] as [string, string]),
          })
        : await testGenerativeProvider(this.config, value(`${this.provider}_api_key`));
    const at = now();
    await this.pool.query(
      `WITH t AS (INSERT INTO operator_settings_tests (service, ok, message, tested_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (service) DO UPDATE SET ok = $2, message = $3, tested_at = $4)
       INSERT INTO operator_settings_audit (operator_id, key, action, occurred_at)
       SELECT $5, d.key, 'tested', $4 FROM unnest($6::text[]) AS d(key)`,
      [
        service,
        result.success,
        result.message,
        at,
        operatorId,
        this.definitions.filter((d) => d.service === service).map((d) => d.key),
      ],
    );
    return result;
  }
}
