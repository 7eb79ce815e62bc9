// The generation pipeline seen from outside: how many jobs wait and for how long, how busy each
// worker's slots are, and how long jobs and the engine's stages take.
import { gaugesOver, instrument, JOB_BUCKETS_S, type Pool, withinMs } from '@flatlay/platform';
import { queueDepth } from '../adapters/job-store.js';

/** Reports the generation queue of the image service's database until the returned function is called. */
export const trackGenerationQueue = gaugesOver<Pool, 'depth' | 'wait'>(
  {
    depth: {
      name: 'flatlay.image.generation.queue.depth',
      description: 'Generation jobs by status: queued (waiting for a worker, retries included), running, charging',
      unit: '{job}',
    },
    wait: {
      name: 'flatlay.image.generation.queue.oldest_wait',
      description: 'How long the longest-waiting due job has been queued (0 when none waits)',
      unit: 's',
    },
  },
  async (pool, record) => {
    const read = await withinMs(2_000, () => queueDepth(pool));
    if (!read) return;
    for (const [status, jobs] of Object.entries(read.byStatus)) record('depth', jobs, { 'flatlay.job.status': status });
    record('wait', read.oldestWaitS);
  },
);

/** A worker's slots: how many it has and how many run a job now. */
export interface SlotSource {
  worker: string;
  size: number;
  busy(): number;
}

/**
 * Reports a worker's slots until the returned function is called. Per process, not per worker
 * id (one that restarts would leave a series behind): a process runs one worker.
 */
export const trackSlots = gaugesOver<SlotSource, 'busy' | 'limit'>(
  {
    busy: {
      name: 'flatlay.image.worker.slots.busy',
      description: "A generation worker's slots running a job now",
      unit: '{slot}',
    },
    limit: {
      name: 'flatlay.image.worker.slots.limit',
      description: "A generation worker's slots (GENERATION_CONCURRENCY)",
      unit: '{slot}',
    },
  },
  (worker, record) => {
    record('busy', worker.busy());
    record('limit', worker.size);
  },
);

const jobDuration = () =>
  instrument('flatlay.image.generation.duration', (meter) =>
    meter.createHistogram('flatlay.image.generation.duration', {
      description:
        'One generation attempt from claim to result, by outcome (completed, failed: it will be retried or has failed)',
      unit: 's',
      advice: { explicitBucketBoundaries: JOB_BUCKETS_S },
    }),
  );

const stageDuration = () =>
  instrument('flatlay.image.engine.stage.duration', (meter) =>
    meter.createHistogram('flatlay.image.engine.stage.duration', {
      description: "The local engine's time per pipeline stage (decode, segment, inference, compose, finish, ...)",
      unit: 's',
      advice: { explicitBucketBoundaries: JOB_BUCKETS_S },
    }),
  );

/** Records one attempt's duration. */
export function recordGeneration(outcome: 'completed' | 'failed', startedMs: number): void {
  jobDuration().record((performance.now() - startedMs) / 1000, { 'flatlay.outcome': outcome });
}

/** Records the engine's stage timings of one job (milliseconds, as the engine reports them). */
export function recordStages(timings: Record<string, number> | undefined): void {
  if (!timings) return;
  for (const [stage, ms] of Object.entries(timings))
    if (Number.isFinite(ms) && ms >= 0) stageDuration().record(ms / 1000, { 'flatlay.engine.stage': stage });
}
