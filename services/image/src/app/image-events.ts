import { events, eventTypes, topics } from '@flatlay/proto';
import { outboxMessage, type OutboxMessage } from '@flatlay/platform';
import type { GenerationOptions } from '../adapters/image-store.js';

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

export function generationCompleted(e: events.GenerationCompleted, at: Date): OutboxMessage {
  return outboxMessage(topics.imageGeneration, eventTypes.GenerationCompleted, events.GenerationCompleted, e, {
    aggregateId: e.imageId,
    occurredAt: at,
  });
}

export function generationFailed(e: events.GenerationFailed, at: Date): OutboxMessage {
  return outboxMessage(topics.imageGeneration, eventTypes.GenerationFailed, events.GenerationFailed, e, {
    aggregateId: e.imageId,
    occurredAt: at,
  });
}

export function imageUnlocked(e: events.ImageUnlocked, at: Date): OutboxMessage {
  return outboxMessage(topics.imageGeneration, eventTypes.ImageUnlocked, events.ImageUnlocked, e, {
    aggregateId: e.imageId,
    occurredAt: at,
  });
}
