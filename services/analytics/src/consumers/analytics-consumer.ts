import { decodeEnvelope, PostgresInbox, type Delivery, type Pool } from '@flatlay/platform';
import { applyEvent, recordPosition } from '../adapters/admin-projection.js';

export const CONSUMER = 'analytics';

/** The newest event time absorbed by this process, read by the projection-lag gauge. */
export interface ProjectionClock {
  newestEventAt?: Date;
}

/**
 * Applies each event once: the inbox row, the read-model changes and the topic's position commit
 * together, so a redelivered event (at-least-once delivery, a relay that published twice) finds
 * its inbox row and changes nothing. Errors are left to the bus, which offers the event again.
 */
export function analyticsEventHandler(pool: Pool, clock: ProjectionClock = {}) {
  const inbox = new PostgresInbox(pool);
  return async (delivery: Delivery): Promise<void> => {
    const envelope = decodeEnvelope(delivery.value);
    const occurredAt = envelope.occurredAt ?? new Date();
    await inbox.handleOnce(CONSUMER, envelope.eventId, async (tx) => {
      await applyEvent(tx, {
        topic: delivery.topic,
        type: envelope.type,
        payload: envelope.payload,
        eventId: envelope.eventId,
        occurredAt,
        aggregateVersion: envelope.aggregateVersion,
      });
      await recordPosition(tx, delivery.topic, occurredAt);
    });
    if (!clock.newestEventAt || occurredAt > clock.newestEventAt) clock.newestEventAt = occurredAt;
  };
}
