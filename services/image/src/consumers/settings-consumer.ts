// The operator's generative key reaches the image service without a restart (ADR 0103, 0802):
// SettingsChanged on analytics.settings.v1 carries `{product}_api_key` sealed under
// SETTINGS_ENCRYPTION_KEY. It is kept as it arrived (still sealed) in `operator_settings`, the
// newest settings version winning, once per event (inbox). The generation workers share this
// database and read it at their next job (OperatorGenerativeSettings); nothing here opens it.
import { events, eventTypes, topics } from '@flatlay/proto';
import { decodeEnvelope, decodePayload, PostgresInbox, type Delivery, type Logger, type Pool } from '@flatlay/platform';
import { keepSetting } from '../adapters/sealed-settings-store.js';
import { apiKeySetting } from '../adapters/generative/operator-settings-source.js';

export const SETTINGS_CONSUMER = 'image-settings';
export const settingsTopic = topics.analyticsSettings;

export function settingsEventHandler(deps: { pool: Pool; logger: Logger; provider: string }) {
  const { pool, logger } = deps;
  const inbox = new PostgresInbox(pool);
  const wanted = apiKeySetting(deps.provider);
  return async (delivery: Delivery): Promise<void> => {
    const envelope = decodeEnvelope(delivery.value);
    if (envelope.type !== eventTypes.SettingsChanged) return;
    const changed = decodePayload(events.SettingsChanged, envelope.payload);
    // Only the provider's key, and only as a secret (never a value in clear).
    const kept = changed.settings.filter((s) => s.key === wanted && s.secret);
    const at = envelope.occurredAt ?? new Date();
    // Every SettingsChanged passes the inbox, so a repeat is recognised whatever it names.
    let newer = false;
    await inbox.handleOnce(SETTINGS_CONSUMER, envelope.eventId, async (tx) => {
      for (const s of kept) {
        const sealed = s.cleared || s.encryptedValue.length === 0 ? undefined : Buffer.from(s.encryptedValue);
        newer = (await keepSetting(tx, s.key, sealed, envelope.aggregateVersion, at)) || newer;
      }
    });
    if (newer)
      logger.info(
        { setting: wanted, version: envelope.aggregateVersion, cleared: kept.some((s) => s.cleared) },
        'generative key from the operator settings kept',
      );
  };
}
