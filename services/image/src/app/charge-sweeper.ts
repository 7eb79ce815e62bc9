import type { Logger, Queryable } from '@flatlay/platform';
import { pendingUnlocks, settleCharge, settleUnlock, unsettledCharges, type ChargeDeps } from './charges.js';
import type { StoredImage } from '../adapters/image-store.js';

export interface ChargeSweeperOptions extends ChargeDeps {
  logger: Logger;
  intervalMs: number;
  /** How long a request has to settle its own charge before the sweeper does it. */
  graceMs: number;
  clock?: () => Date;
  /** Told of each job it queued (the in-process worker takes it at once). */
  onQueued?: (imageId: string) => void;
  /** Unlocks the image inside the transaction that finishes a recorded unlock (Generations.unlocked). */
  unlocked: (
    tx: Queryable,
    image: StoredImage,
    userId: string,
    via: 'tokens' | 'claim',
    charged: number,
  ) => Promise<void>;
}

/**
 * Settles the charges that a crash or an outage left behind (ADR 0104): every signed-in user's job
 * still 'charging' after the grace period is settled as its request would have (the ledger's spend
 * again, keyed by the image id, then queued). Each job is handled on its own: one that fails again
 * (the ledger still unreachable) is left for the next round and never holds up the others. Unlocks
 * paid with tokens that a crash left between the spend and the unlock are finished the same way.
 */
/** One round: every unlock and charge left unsettled past the grace period, each on its own. */
export async function sweepCharges(o: ChargeSweeperOptions, isStopped: () => boolean = () => false): Promise<void> {
  const clock = o.clock ?? (() => new Date());
  // Unlocks paid with tokens whose request died between the spend and the unlock: finished the
  // same way (the spend again takes nothing more), so tokens taken always end in an unlock.
  for (const { imageId, userId } of await pendingUnlocks(o.pool, clock(), o.graceMs)) {
    if (isStopped()) return;
    try {
      const outcome = await settleUnlock(o, imageId, userId, (tx, image, charged) =>
        o.unlocked(tx, image, userId, image.userId ? 'tokens' : 'claim', charged),
      );
      o.logger.info({ imageId, outcome: outcome.kind }, 'finished an unlock left pending');
    } catch (err) {
      o.logger.warn({ err, imageId }, 'could not finish a pending unlock yet, or it was refused');
    }
  }
  for (const imageId of await unsettledCharges(o.pool, clock(), o.graceMs)) {
    if (isStopped()) return;
    try {
      const outcome = await settleCharge(o, imageId, clock());
      if (outcome.kind === 'queued') o.onQueued?.(imageId);
      o.logger.info({ imageId, outcome: outcome.kind }, 'settled a generation charge left unsettled');
    } catch (err) {
      o.logger.warn({ err, imageId }, 'could not settle a generation charge yet; trying again later');
    }
  }
}

export function startChargeSweeper(o: ChargeSweeperOptions): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  const loop = () => {
    round = sweepCharges(o, () => stopped)
      .catch((err) => o.logger.warn({ err }, 'charge sweep failed; trying again'))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, o.intervalMs);
      });
  };
  loop();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await round;
  };
}
