// Operator price ids (analytics' SettingsChanged) win over the catalogue's, without a restart.
// stripe_{plan}_price_id sets the monthly price of the catalogue plan whose id is {plan}
// (the settings page holds one price per plan); pro and agency have no plan in the catalogue,
// so their ids are kept and take effect only if such a plan is added (docs/decisions/0802).
// stripe_public_key (not a secret) is kept the same way, in the same table (its value in
// price_id), and is what GET /api/stripe/config answers while it is set.
import { events, eventTypes, topics } from '@flatlay/proto';
import { decodeEnvelope, decodePayload, PostgresInbox, type Delivery, type Logger, type Pool } from '@flatlay/platform';
import type { Catalogue } from '../app/catalogue.js';

export const SETTINGS_CONSUMER = 'billing-settings';
export const settingsTopic = topics.analyticsSettings;

const PRICE_SETTING = /^stripe_([a-z][a-z0-9_]*)_price_id$/;
export const PUBLISHABLE_KEY_SETTING = 'stripe_public_key';

/** The settings billing keeps: the plans' price ids and the publishable key. */
const isPaymentSetting = (key: string) => key === PUBLISHABLE_KEY_SETTING || planKeyOfSetting(key) !== undefined;

/** The plan key a price setting overrides (stripe_lite_price_id -> lite_monthly), or undefined. */
export const planKeyOfSetting = (key: string): string | undefined => {
  const match = PRICE_SETTING.exec(key);
  return match ? `${match[1]}_monthly` : undefined;
};

/** Keeps the catalogue's overrides (and the operator's publishable key) equal to the price_overrides table. */
export class PriceOverrides {
  constructor(
    private readonly pool: Pool,
    private readonly catalogue: Catalogue,
    private readonly logger: Logger,
    private readonly operatorSettings: { publishableKey: string | undefined } = { publishableKey: undefined },
  ) {}

  async reload(): Promise<void> {
    const { rows } = await this.pool.query<{ setting_key: string; price_id: string | null }>(
      'SELECT setting_key, price_id FROM price_overrides WHERE price_id IS NOT NULL',
    );
    const overrides = new Map<string, string>();
    this.operatorSettings.publishableKey =
      rows.find((r) => r.setting_key === PUBLISHABLE_KEY_SETTING)?.price_id || undefined;
    for (const r of rows) {
      const planKey = planKeyOfSetting(r.setting_key);
      if (planKey && r.price_id) overrides.set(planKey, r.price_id);
    }
    this.catalogue.setPriceOverrides(overrides);
  }

  /**
   * Reloads every `intervalMs`: one replica consumes each event (the consumer group shares the
   * topic), the others see its row here within the interval.
   */
  follow(intervalMs: number): () => Promise<void> {
    const timer = setInterval(() => {
      this.reload().catch((err) => this.logger.warn({ err }, 'could not reload price overrides'));
    }, intervalMs);
    timer.unref();
    return async () => clearInterval(timer);
  }

  /** Applies one SettingsChanged delivery once (inbox), newest version winning per key. */
  handler() {
    const inbox = new PostgresInbox(this.pool);
    return async (delivery: Delivery): Promise<void> => {
      const envelope = decodeEnvelope(delivery.value);
      if (envelope.type !== eventTypes.SettingsChanged) return;
      const changed = decodePayload(events.SettingsChanged, envelope.payload);
      const prices = changed.settings.filter((s) => !s.secret && isPaymentSetting(s.key));
      if (prices.length === 0) return;
      const at = envelope.occurredAt ?? new Date();
      await inbox.handleOnce(SETTINGS_CONSUMER, envelope.eventId, async (tx) => {
        for (const s of prices)
          await tx.query(
            `INSERT INTO price_overrides (setting_key, price_id, version, updated_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (setting_key) DO UPDATE SET price_id = $2, version = $3, updated_at = $4
             WHERE price_overrides.version < $3`,
            [s.key, s.cleared ? null : s.value, envelope.aggregateVersion, at],
          );
      });
      await this.reload();
      this.logger.info({ keys: prices.map((p) => p.key) }, 'payment settings applied');
    };
  }
}
