import { events, eventTypes, topics } from '@flatlay/proto';
import { type MessageType, outboxMessage, type OutboxMessage } from '@flatlay/platform';
import type { GenerationOptions } from '../adapters/image-store.js';
import type { ImageRecord } from '../domain/image-view.js';

// The image service's events, addressed to their topics and keyed by image id.

export function generationRequested(
  e: {
    imageId: string;
    userId: string | null;
    enhancementType: string;
    originalKey: string;
    contentType: string;
    options: GenerationOptions;
    locked: boolean;
    tokensCharged: number;
  },
  at: Date,
): OutboxMessage {
  return outboxMessage(
    topics.imageGenerationRequested,
    eventTypes.GenerationRequested,
    events.GenerationRequested,
    {
      imageId: e.imageId,
      userId: e.userId ?? '',
      enhancementType: e.enhancementType,
      originalKey: e.originalKey,
      contentType: e.contentType,
      options: e.options,
      locked: e.locked,
      tokensCharged: e.tokensCharged,
    },
    { aggregateId: e.imageId, occurredAt: at },
  );
}

/** The image a generation's outcome is about, as its row names it (a guest's try has no owner: null). */
type OutcomeOf = Pick<ImageRecord, 'imageId' | 'userId'>;

/** A generation's outcome on its topic: the events write a guest's try's missing owner as "", here once. */
function generationOutcome<E extends { imageId: string; userId: string }>(
  typeName: string,
  type: MessageType<E>,
  image: OutcomeOf,
  e: Omit<E, 'imageId' | 'userId'>,
  at: Date,
): OutboxMessage {
  const payload = { ...e, imageId: image.imageId, userId: image.userId ?? '' } as E;
  return outboxMessage(topics.imageGeneration, typeName, type, payload, { aggregateId: image.imageId, occurredAt: at });
}

export const generationCompleted = (
  image: OutcomeOf,
  e: Omit<events.GenerationCompleted, 'imageId' | 'userId'>,
  at: Date,
): OutboxMessage => generationOutcome(eventTypes.GenerationCompleted, events.GenerationCompleted, image, e, at);

export const generationFailed = (
  image: OutcomeOf,
  e: Omit<events.GenerationFailed, 'imageId' | 'userId'>,
  at: Date,
): OutboxMessage => generationOutcome(eventTypes.GenerationFailed, events.GenerationFailed, image, e, at);

export function imageUnlocked(e: events.ImageUnlocked, at: Date): OutboxMessage {
  return outboxMessage(topics.imageGeneration, eventTypes.ImageUnlocked, events.ImageUnlocked, e, {
    aggregateId: e.imageId,
    occurredAt: at,
  });
}
