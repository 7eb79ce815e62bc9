export interface PollOptions<T> {
  /** One look at the job: a value ends the wait, null means "not yet". Throwing ends it too. */
  check: () => Promise<T | null>;
  intervalMs: number;
  /** Give up after this long, or after this many looks, whichever comes first. */
  timeoutMs?: number;
  tries?: number;
  timeoutMessage: string;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  signal?: AbortSignal;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function pollUntil<T>(options: PollOptions<T>): Promise<T> {
  const sleep = options.sleep ?? wait;
  const now = options.now ?? Date.now;
  const deadline = options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : now() + options.timeoutMs;
  const tries = options.tries ?? Number.POSITIVE_INFINITY;
  for (let attempt = 1; attempt <= tries; attempt++) {
    if (options.signal?.aborted) throw new Error('Cancelled');
    const value = await options.check();
    if (value !== null) return value;
    if (attempt >= tries || now() + options.intervalMs > deadline) break;
    await sleep(options.intervalMs);
  }
  throw new Error(options.timeoutMessage);
}
