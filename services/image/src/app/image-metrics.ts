// The generation pipeline seen from outside: how many jobs wait and for how long, how busy each
// worker's slots are, and how long jobs and the engine's stages take.
import { defineObservables, instrument, JOB_BUCKETS_S, withinMs, type Meter, type Pool } from '@flatlay/platform';
import { queueDepth } from '../adapters/job-store.js';

const queues = new Set<Pool>();

function observeQueue(meter: Meter): void {
  const depth = meter.createObservableGauge('flatlay.image.generation.queue.depth', {
    description: 'Generation jobs by status: queued (waiting for a worker, retries included), running, charging',
    unit: '{job}',
  });
  const wait = meter.createObservableGauge('flatlay.image.generation.queue.oldest_wait', {
    description: 'How long the longest-waiting due job has been queued (0 when none waits)',
    unit: 's',
  });
  meter.addBatchObservableCallback(
    async (result) => {
      for (const pool of [...queues]) {
        const read = await withinMs(2_000, () => queueDepth(pool));
        if (!read) continue;
        for (const [status, jobs] of Object.entries(read.byStatus))
          result.observe(depth, jobs, { 'flatlay.job.status': status });
        result.observe(wait, read.oldestWaitS);
      }
    },
    [depth, wait],
  );
}

/** Reports the generation queue of the image service's database until the returned function is called. */
export function trackGenerationQueue(pool: Pool): () => void {
  defineObservables(observeQueue);
  queues.add(pool);
  return () => {
    queues.delete(pool);
  };
}

/** A worker's slots: how many it has and how many run a job now. */
export interface SlotSource {
  worker: string;
  size: number;
  busy(): number;
}

const workers = new Set<SlotSource>();

function observeSlots(meter: Meter): void {
  const busy = meter.createObservableGauge('flatlay.image.worker.slots.busy', {
    description: "A generation worker's slots running a job now",
    unit: '{slot}',
  });
  const size = meter.createObservableGauge('flatlay.image.worker.slots.limit', {
    description: "A generation worker's slots (GENERATION_CONCURRENCY)",
    unit: '{slot}',
  });
  meter.addBatchObservableCallback(
    (result) => {
      // Per process, not per worker id (one that restarts would leave a series behind): a
      // process runs one worker.
      for (const w of workers) {
        result.observe(busy, w.busy());
        result.observe(size, w.size);
      }
    },
    [busy, size],
  );
}

/** Reports a worker's slots until the returned function is called. */
export function trackSlots(source: SlotSource): () => void {
  defineObservables(observeSlots);
  workers.add(source);
  return () => {
    workers.delete(source);
  };
}

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
