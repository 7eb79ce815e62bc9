import { events, eventTypes, topics } from '@flatlay/proto';
import {
  AppError,
  decodeEnvelope,
  decodePayload,
  PostgresInbox,
  type Delivery,
  type Logger,
  type Pool,
} from '@flatlay/platform';
import { exportFolder, type BlobStore } from '@flatlay/files';
import type { Generations } from '../app/generations.js';
import { drainBlobDeletions, recordBlobDeletions } from '../app/blob-deletions.js';
import { blobsOfUser, deleteImagesOfUser, imageFolder } from '../adapters/image-store.js';
import { forgetPlan, recordPlan } from '../app/user-plans.js';

export const CONSUMER = 'image';
export const consumedTopics = [topics.identityUser, topics.billingPayment];

/**
 * What the image service learns from others: each user's plan (who may choose sub-types), a
 * deleted account (its images and files go), and one-off payments that unlock an image.
 */
export function imageEventHandler(deps: { pool: Pool; blobs: BlobStore; generations: Generations; logger: Logger }) {
  const { pool, blobs, generations, logger } = deps;
  const inbox = new PostgresInbox(pool);
  const paid = (eventId: string, imageId: string, paymentId: string, payer: { userId: string } | 'guest') =>
    inbox.handleOnce(CONSUMER, eventId, async (tx) => {
      try {
        await generations.markPaid(imageId, paymentId, payer, tx);
      } catch (error) {
        // A payment for an image that is gone (or never was the payer's) unlocks nothing; billing keeps the record.
        if (!(error instanceof AppError)) throw error;
        logger.warn({ eventId, imageId, code: error.code }, 'payment for an unknown image ignored');
      }
    });
  return async (delivery: Delivery): Promise<void> => {
    const envelope = decodeEnvelope(delivery.value);
    const at = envelope.occurredAt ?? new Date();
    switch (envelope.type) {
      case eventTypes.UserPlanChanged: {
        const e = decodePayload(events.UserPlanChanged, envelope.payload);
        await inbox.handleOnce(CONSUMER, envelope.eventId, (tx) =>
          recordPlan(tx, e.userId, e.subscriptionPlan, e.subscriptionStatus, at),
        );
        return;
      }
      case eventTypes.UserDeleted: {
        const { userId } = decodePayload(events.UserDeleted, envelope.payload);
        await inbox.handleOnce(CONSUMER, envelope.eventId, async (tx) => {
          // Rows go now; their files are recorded in the same transaction and deleted after the
          // commit (a store call here would hold this transaction, and the outbox relay behind it).
          const owned = await blobsOfUser(tx, userId);
          await recordBlobDeletions(tx, [
            ...owned.flatMap((image) => [
              { key: image.originalKey, prefix: false },
              { key: imageFolder(image.imageId), prefix: true },
            ]),
            // The archives of the person's data exports (ADR 0403), in the same store.
            { key: exportFolder(userId), prefix: true },
          ]);
          const rows = await deleteImagesOfUser(tx, userId);
          await forgetPlan(tx, userId);
          logger.info({ userId, images: rows }, "deleted a closed account's images");
        });
        // At once, as a courtesy; what fails here is left recorded for the blob-deletion sweeper.
        await drainBlobDeletions(pool, blobs, logger).catch((err) =>
          logger.warn({ err, userId }, 'deleting the files of a closed account failed; the sweeper tries again'),
        );
        return;
      }
      // Billing publishes the fact each unlock payment stands for (PaymentSucceeded is revenue,
      // read by the ledger and analytics): the image unlocks in the inbox's transaction, once.
      case eventTypes.ImageUnlockPaid: {
        const e = decodePayload(events.ImageUnlockPaid, envelope.payload);
        await paid(envelope.eventId, e.imageId, e.paymentId, { userId: e.userId });
        return;
      }
      case eventTypes.AnonymousEnhancementPaid: {
        const e = decodePayload(events.AnonymousEnhancementPaid, envelope.payload);
        await paid(envelope.eventId, e.enhancementId, e.paymentId, 'guest');
        return;
      }
      default:
        return;
    }
  };
}
