// A generation job's life: queued, claimed by one worker under a lease, then completed, retried
// after a pause, or failed for good. A worker that dies leaves its lease to expire, and the next
// worker to claim the job runs it again; the attempt count travels with the job, so a photo that
// kills every worker still ends failed (and refunded) after the allowed attempts.
//
// A signed-in user's job starts 'charging': the job is recorded before the ledger is asked to
// spend, so a crash between the two leaves a job that the charge sweeper settles (ADR 0104).
// No worker claims a job until its charge is settled.

export type JobStatus = 'charging' | 'queued' | 'running' | 'succeeded' | 'failed';

export interface JobState {
  status: JobStatus;
  /** Attempts started so far (a claim starts one). */
  attempts: number;
  /** Worker holding the lease (running only). */
  worker: string | null;
  leaseExpiresAt: Date | null;
  /** A queued job waits until then before its next attempt (retry backoff). */
  notBefore: Date;
}

export interface JobPolicy {
  maxAttempts: number;
  leaseMs: number;
  /** Pause after the given failed attempt (1-based) before the next one. */
  backoffMs(attempt: number): number;
}

export type JobCommand =
  /** The charge was settled (spent, or left locked for too few tokens): the job may run. */
  | { type: 'ChargeSettled'; at: Date }
  /** The ledger refused the charge for good (a closed account): nothing was taken, nothing runs. */
  | { type: 'ChargeRefused'; at: Date; code: string; message: string }
  | { type: 'Claim'; worker: string; at: Date }
  | { type: 'Renew'; worker: string; attempt: number; at: Date }
  | { type: 'Complete'; worker: string; attempt: number; at: Date }
  | {
      type: 'AttemptFailed';
      worker: string;
      attempt: number;
      at: Date;
      /** False when running it again cannot help (the photo itself was refused). */
      retryable: boolean;
      code: string;
      message: string;
    };

export type JobDecision =
  | { type: 'Queued'; notBefore: Date }
  | { type: 'Claimed'; attempt: number; leaseExpiresAt: Date }
  | { type: 'LeaseRenewed'; leaseExpiresAt: Date }
  | { type: 'Completed' }
  | { type: 'RetryScheduled'; notBefore: Date; code: string; message: string }
  | { type: 'Failed'; code: string; message: string }
  /** Nothing to do: finished already, another worker's live lease, or a retry not due yet. */
  | { type: 'NotClaimable'; reason: 'finished' | 'leased' | 'not_due' | 'charging' }
  /** This worker's lease expired and another worker took the job over; its result is dropped. */
  | { type: 'Superseded' };

export const ATTEMPTS_EXHAUSTED = 'ATTEMPTS_EXHAUSTED';

/** A job with nothing to settle first (a guest's try: no charge). */
export const newJob = (at: Date): JobState => ({
  status: 'queued',
  attempts: 0,
  worker: null,
  leaseExpiresAt: null,
  notBefore: at,
});

/** A signed-in user's job, recorded before its charge (ADR 0104). */
export const newChargingJob = (at: Date): JobState => ({ ...newJob(at), status: 'charging' });

/** Exponential backoff from `baseMs`, doubling per failed attempt, at most `maxMs`. */
export const exponentialBackoff =
  (baseMs: number, maxMs = 60_000) =>
  (attempt: number): number =>
    Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));

const holds = (state: JobState, worker: string, attempt: number) =>
  state.status === 'running' && state.worker === worker && state.attempts === attempt;

export function decide(command: JobCommand, state: JobState, policy: JobPolicy): JobDecision {
  switch (command.type) {
    case 'ChargeSettled':
      // Settled once: a second settler (the request and the sweeper racing) finds it queued.
      if (state.status !== 'charging') return { type: 'Superseded' };
      return { type: 'Queued', notBefore: command.at };
    case 'ChargeRefused':
      if (state.status !== 'charging') return { type: 'Superseded' };
      return { type: 'Failed', code: command.code, message: command.message };
    case 'Claim': {
      if (state.status === 'charging') return { type: 'NotClaimable', reason: 'charging' };
      if (state.status === 'succeeded' || state.status === 'failed')
        return { type: 'NotClaimable', reason: 'finished' };
      if (state.status === 'running' && state.leaseExpiresAt && state.leaseExpiresAt > command.at)
        return { type: 'NotClaimable', reason: 'leased' };
      if (state.status === 'queued' && state.notBefore > command.at) return { type: 'NotClaimable', reason: 'not_due' };
      // A lease that ran out on the last allowed attempt: the worker died on it every time.
      if (state.attempts >= policy.maxAttempts)
        return {
          type: 'Failed',
          code: ATTEMPTS_EXHAUSTED,
          message: `no worker finished it in ${state.attempts} attempts`,
        };
      return {
        type: 'Claimed',
        attempt: state.attempts + 1,
        leaseExpiresAt: new Date(command.at.getTime() + policy.leaseMs),
      };
    }
    case 'Renew':
      if (!holds(state, command.worker, command.attempt)) return { type: 'Superseded' };
      return { type: 'LeaseRenewed', leaseExpiresAt: new Date(command.at.getTime() + policy.leaseMs) };
    case 'Complete':
      if (!holds(state, command.worker, command.attempt)) return { type: 'Superseded' };
      return { type: 'Completed' };
    case 'AttemptFailed': {
      if (!holds(state, command.worker, command.attempt)) return { type: 'Superseded' };
      if (!command.retryable) return { type: 'Failed', code: command.code, message: command.message };
      if (state.attempts >= policy.maxAttempts)
        return {
          type: 'Failed',
          code: ATTEMPTS_EXHAUSTED,
          message: `failed ${state.attempts} times; last: ${command.code}: ${command.message}`,
        };
      return {
        type: 'RetryScheduled',
        notBefore: new Date(command.at.getTime() + policy.backoffMs(state.attempts)),
        code: command.code,
        message: command.message,
      };
    }
  }
}

/** The state after a decision taken by `worker` (claims and renewals name it). */
export function evolve(state: JobState, decision: JobDecision, worker: string): JobState {
  switch (decision.type) {
    case 'Queued':
      return { ...state, status: 'queued', notBefore: decision.notBefore };
    case 'Claimed':
      return {
        ...state,
        status: 'running',
        attempts: decision.attempt,
        worker,
        leaseExpiresAt: decision.leaseExpiresAt,
      };
    case 'LeaseRenewed':
      return { ...state, leaseExpiresAt: decision.leaseExpiresAt };
    case 'Completed':
      return { ...state, status: 'succeeded', worker: null, leaseExpiresAt: null };
    case 'RetryScheduled':
      return { ...state, status: 'queued', worker: null, leaseExpiresAt: null, notBefore: decision.notBefore };
    case 'Failed':
      return { ...state, status: 'failed', worker: null, leaseExpiresAt: null };
    case 'NotClaimable':
    case 'Superseded':
      return state;
  }
}
