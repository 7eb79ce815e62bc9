import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { events } from '@flatlay/proto';
import {
  decodeEnvelope,
  decodePayload,
  enqueueOutbox,
  withTransaction,
  type Bus,
  type Delivery,
  type Logger,
  type Pool,
  type Subscription,
} from '@flatlay/platform';
import { eventTypes } from '@flatlay/proto';
import { readAll, type BlobStore } from '@flatlay/files';
import { decide, evolve, type JobCommand, type JobDecision, type JobPolicy } from '../domain/index.js';
import type { Engine } from '../engine/engine.js';
import { isEngineError } from '../engine/errors.js';
import { generationCompleted, generationFailed } from './image-events.js';
import { isFinalRefusal } from './charges.js';
import {
  completeImage,
  failImage,
  findImage,
  imageFolder,
  markRefunded,
  markRefundNotPossible,
  refundsDue,
} from '../adapters/image-store.js';
import { dueJobs, loadJob, saveJob } from '../adapters/job-store.js';
import type { LedgerPort } from '../adapters/ledger-client.js';
import { planOf } from './user-plans.js';
import type { EnhanceOptions } from '../engine/options.js';
import type { GenerativeProvider, JobResult } from '../adapters/generative/index.js';
import { Slots } from './slots.js';
import { recordGeneration, recordStages, trackSlots } from './image-metrics.js';

/** What the worker needs of the engine (the threaded engine in production, a fake in tests). */
export type EnhanceEngine = Pick<Engine, 'enhance' | 'close' | 'runtime'>;

export interface WorkerOptions {
  pool: Pool;
  blobs: BlobStore;
  ledger: LedgerPort;
  /** Made on first use, so a worker starts (and answers health checks) before the model loads. */
  engine: () => Promise<EnhanceEngine>;
  /** Jobs of plans it is on for go to the generative provider first (ADR 0103); absent: local only. */
  generative?: GenerativeProvider;
  logger: Logger;
  policy: JobPolicy;
  concurrency: number;
  /** How often to look for retries that are due and jobs whose worker died. */
  sweepIntervalMs: number;
  /** How long a first attempt may wait for the bus before a sweep takes it. */
  sweepGraceMs: number;
  clock?: () => Date;
  workerId?: string;
}

/** The engine's refusals of the photo itself: running it again gives the same answer. */
const PHOTO_REFUSALS = new Set([
  'EMPTY_INPUT',
  'UNSUPPORTED_FORMAT',
  'CORRUPT_IMAGE',
  'TOO_MANY_PIXELS',
  'INVALID_OPTIONS',
  'NO_PRODUCT_FOUND',
]);

const EXTENSIONS: Record<string, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', avif: 'avif' };

/**
 * Runs generation jobs: those the bus delivers on the work queue, and those a periodic sweep
 * finds (retries that are due, jobs left by a worker that died). Each job is claimed under a
 * lease before it runs, so one photo is enhanced by one worker at a time, whichever way it came.
 */
export class GenerationWorker {
  readonly id: string;
  private readonly slots: Slots;
  private readonly clock: () => Date;
  private readonly running = new Set<Promise<void>>();
  private engine: Promise<EnhanceEngine> | undefined;
  private subscription: Subscription | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private untrackSlots: (() => void) | undefined;

  constructor(private readonly o: WorkerOptions) {
    this.id = o.workerId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
    this.slots = new Slots(o.concurrency);
    this.clock = o.clock ?? (() => new Date());
  }

  async start(bus: Bus, queue: { topic: string; group: string }): Promise<void> {
    const slots = this.slots;
    this.untrackSlots = trackSlots({ worker: this.id, size: slots.size, busy: () => slots.busy });
    this.subscription = await bus.subscribe({
      groupId: queue.group,
      topics: [queue.topic],
      handle: this.onDelivery,
      logger: this.o.logger,
    });
    const sweep = () => {
      this.sweep()
        .catch((err) => this.o.logger.warn({ err }, 'generation sweep failed; trying again'))
        .finally(() => {
          if (!this.stopped) this.sweepTimer = setTimeout(sweep, this.o.sweepIntervalMs);
        });
    };
    sweep();
  }

  /** Stops taking work, lets jobs in hand finish, and closes the engine. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.untrackSlots?.();
    clearTimeout(this.sweepTimer);
    await this.subscription?.close();
    await Promise.allSettled([...this.running]);
    const engine = await this.engine?.catch(() => undefined);
    await engine?.close();
  }

  // A delivery waits for a free slot, then the job runs on in the background and the offset is
  // committed: if this worker dies, the job's lease runs out and another worker's sweep takes it.
  private onDelivery = async (delivery: Delivery): Promise<void> => {
    const envelope = decodeEnvelope(delivery.value);
    if (envelope.type !== eventTypes.GenerationRequested) return;
    const { imageId } = decodePayload(events.GenerationRequested, envelope.payload);
    await this.slots.acquire();
    this.track(imageId);
  };

  /**
   * A job just queued in this process (the embedded default's in-process worker): taken at once
   * when a slot is free, rather than after the outbox relay's next poll and the bus. The bus
   * delivery that follows finds it claimed and does nothing; with no free slot it waits for the bus.
   */
  offer(imageId: string): void {
    if (!this.stopped && this.slots.tryAcquire()) this.track(imageId);
  }

  private async sweep(): Promise<void> {
    const { pool } = this.o;
    // Each refund on its own: one that throws must not keep the sweep from the others, nor from
    // taking over the jobs of dead workers below.
    for (const due of await refundsDue(pool)) await this.refund(due.userId, due.imageId);
    for (const imageId of await dueJobs(pool, this.clock(), this.o.sweepGraceMs, this.o.concurrency)) {
      if (this.stopped || !this.slots.tryAcquire()) return;
      this.track(imageId);
    }
  }

  /** Runs one job in a slot already taken, and releases it after. */
  private track(imageId: string): void {
    const run = this.runJob(imageId)
      .catch((err) => this.o.logger.error({ err, imageId }, 'generation job stopped on an unexpected error'))
      .finally(() => {
        this.slots.release();
        this.running.delete(run);
      });
    this.running.add(run);
  }

  /** Decides a command on the job's current state and writes it if nobody moved the job meanwhile. */
  private async apply(
    imageId: string,
    command: JobCommand,
    q: Pick<Pool, 'query'> = this.o.pool,
  ): Promise<JobDecision | undefined> {
    const job = await loadJob(q, imageId);
    if (!job) return undefined;
    const decision = decide(command, job.state, this.o.policy);
    if (decision.type === 'NotClaimable' || decision.type === 'Superseded') return decision;
    const lastError = decision.type === 'RetryScheduled' || decision.type === 'Failed' ? decision.message : undefined;
    const saved = await saveJob(q, imageId, evolve(job.state, decision, this.id), job.version, command.at, lastError);
    return saved ? decision : { type: 'Superseded' };
  }

  private async runJob(imageId: string): Promise<void> {
    const { logger } = this.o;
    const claimed = await this.finishing(imageId, { type: 'Claim', worker: this.id, at: this.clock() });
    if (claimed?.type !== 'Claimed') return;
    const attempt = claimed.attempt;
    const renew = setInterval(
      () => {
        this.apply(imageId, { type: 'Renew', worker: this.id, attempt, at: this.clock() }).catch((err) =>
          logger.warn({ err, imageId }, 'could not renew a generation lease'),
        );
      },
      Math.max(50, this.o.policy.leaseMs / 3),
    );
    const started = performance.now();
    try {
      await this.generate(imageId, attempt);
      recordGeneration('completed', started);
    } catch (error) {
      recordGeneration('failed', started);
      const code = isEngineError(error) ? error.code : 'WORKER_ERROR';
      const message = error instanceof Error ? error.message : String(error);
      logger.warn({ imageId, attempt, code, err: error }, 'generation attempt failed');
      await this.finishing(imageId, {
        type: 'AttemptFailed',
        worker: this.id,
        attempt,
        at: this.clock(),
        retryable: !PHOTO_REFUSALS.has(code),
        code,
        message,
      });
    } finally {
      clearInterval(renew);
    }
  }

  /** Applies a claim or a failure; a job that ends failed is recorded, announced and refunded. */
  private async finishing(imageId: string, command: JobCommand): Promise<JobDecision | undefined> {
    const failed = await withTransaction(this.o.pool, async (tx) => {
      const decision = await this.apply(imageId, command, tx);
      if (decision?.type !== 'Failed') return { decision, refund: undefined };
      const image = await findImage(tx, imageId);
      if (!image) return { decision, refund: undefined };
      const at = this.clock();
      await failImage(tx, imageId, decision.code, decision.message, at);
      const refundDue = image.chargedTokens > 0 && !!image.userId;
      const job = await loadJob(tx, imageId);
      const attempts = job?.state.attempts ?? 0;
      const failure = { reasonCode: decision.code, reason: decision.message, attempts, refundDue };
      await enqueueOutbox(tx, [generationFailed(image, failure, at)]);
      return { decision, refund: refundDue && image.userId ? image.userId : undefined };
    });
    // Keyed by image id on the ledger: a refund sent twice (this, then a sweep) gives back once.
    if (failed.refund) await this.refund(failed.refund, imageId);
    return failed.decision;
  }

  /**
   * Gives back a failed generation's charge. Not reached now (the ledger down): the image stays
   * 'due' and the next sweep tries again. Refused for good (the account was closed): the image
   * ends 'not_possible' with the reason, which the operator sees, instead of failing every sweep.
   */
  private async refund(userId: string, imageId: string): Promise<void> {
    const { pool, ledger, logger } = this.o;
    try {
      await ledger.refund(userId, imageId);
      await markRefunded(pool, imageId);
      logger.info({ imageId }, 'refunded a failed generation');
    } catch (err) {
      if (isFinalRefusal(err)) {
        await markRefundNotPossible(pool, imageId, err.message);
        logger.error({ err, imageId, userId }, 'a failed generation cannot be refunded');
      } else {
        logger.warn({ err, imageId }, 'could not refund a failed generation yet; the sweep tries again');
      }
    }
  }

  /** The local engine, loaded on first use (and again after a failed load). */
  private async localEngine(): Promise<EnhanceEngine> {
    if (!this.engine) {
      this.engine = this.o.engine();
      void this.engine.then(
        (e) => {
          const runtime = e.runtime;
          if (!runtime) return;
          this.o.logger.info({ engine: runtime }, 'engine loaded');
          for (const w of runtime.warnings) this.o.logger.warn({ engine: runtime }, w);
        },
        () => undefined, // reported where the job fails
      );
    }
    return this.engine.catch((error) => {
      this.engine = undefined; // try loading again on the next attempt
      throw error;
    });
  }

  /** The job's result: the generative provider's where the owner's plan has it, else the local engine's. */
  private async produce(
    imageId: string,
    userId: string | null,
    input: Buffer,
    options: EnhanceOptions,
    attempt: number,
    instruction: string | null,
  ): Promise<JobResult> {
    const local = async () => {
      const result = await (await this.localEngine()).enhance(input, options);
      recordStages(result.timings);
      return result;
    };
    if (!this.o.generative || !userId) return local();
    const plan = await planOf(this.o.pool, userId);
    const { result, by } = await this.o.generative.produce(input, options, plan, local, { imageId, instruction });
    this.o.logger.info({ imageId, attempt, by }, 'generation result made');
    return result;
  }

  private async generate(imageId: string, attempt: number): Promise<void> {
    const { pool, blobs, logger } = this.o;
    const image = await findImage(pool, imageId);
    if (!image) return;
    const original = await blobs.get(image.originalKey);
    if (!original) throw new Error(`the original photo ${image.originalKey} is missing`);
    const input = await readAll(original.body);
    const o = image.options;
    const result = await this.produce(
      imageId,
      image.userId,
      input,
      {
        type: image.enhancementType,
        background: o.background as 'white',
        shadow: o.shadow,
        size: o.size || undefined,
        format: o.format as 'jpeg',
        transparent: o.transparent,
        preset: o.preset || undefined,
      },
      attempt,
      image.instruction,
    );
    const folder = imageFolder(imageId);
    const resultKey = `${folder}result.${EXTENSIONS[result.format] ?? 'jpg'}`;
    const resultType = `image/${result.format}`;
    const previewKey = `${folder}preview.jpg`;
    await blobs.put(resultKey, result.full, resultType);
    await blobs.put(previewKey, result.preview, 'image/jpeg');
    const at = this.clock();
    const done = await withTransaction(pool, async (tx) => {
      const decision = await this.apply(imageId, { type: 'Complete', worker: this.id, attempt, at }, tx);
      if (decision?.type !== 'Completed') return false;
      await completeImage(
        tx,
        imageId,
        { resultKey, resultType, previewKey, width: result.width, height: result.height },
        at,
      );
      const { width, height, format } = result;
      const outcome = { locked: image.isLocked, width, height, format, attempts: attempt };
      await enqueueOutbox(tx, [generationCompleted(image, outcome, at)]);
      return true;
    });
    // The image was deleted meanwhile (its owner left): leave none of its files behind.
    if (!done && !(await loadJob(pool, imageId))) await blobs.deletePrefix(folder);
    if (done) logger.info({ imageId, attempt }, 'generation completed');
  }
}
