// What the analytics service publishes when an operator saves a setting billing reads (a price id,
// the publishable key): one SettingsChanged on analytics.settings.v1, sent as its outbox would.
import { events, eventTypes, topics } from '@flatlay/proto';
import { type Bus, outboxMessage } from '@flatlay/platform';

/**
 * Publishes one plain (not secret) setting. `version` orders the events: a test passes one above
 * any version another run's analytics published, so its events are the newest.
 */
export async function publishSetting(bus: Bus, key: string, value: string, version: number, cleared = false) {
  const m = outboxMessage(
    topics.analyticsSettings,
    eventTypes.SettingsChanged,
    events.SettingsChanged,
    {
      changedBy: 'operator-1',
      settings: [{ key, secret: false, value, encryptedValue: Buffer.alloc(0), masked: value, cleared }],
    },
    { aggregateId: 'operator-settings', aggregateVersion: version, occurredAt: new Date() },
  );
  await bus.publish([{ topic: m.topic, key: m.key, value: Buffer.from(m.envelope), headers: {} }]);
}
