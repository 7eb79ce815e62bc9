// A guest's paid try, from the return from the payment page until its full result is shown. The
// provider's confirmation (its webhook) can land after the browser returns: the gateway answers at
// once (202 while the payment is being confirmed or the try unlocked), and the waiting happens
// here, with back-off, for as long as the payment is pending. The enhancement id is kept in
// session storage meanwhile, so a reload goes on waiting; the link the guest is given opens the
// paid result later, in any browser (docs/decisions/0107-guest-unlock-confirmation.md).

/** What one unlock call answered, as the loop reads it. */
export type UnlockAnswer =
  | { kind: 'unlocked'; url: string }
  | { kind: 'pending'; status: PendingStatus }
  /** The server refused for good (404: no such try; 409: no payment was ever started). */
  | { kind: 'refused'; message: string }
  /** No answer, or one that may change (network, 5xx, 429): asked again a few times. */
  | { kind: 'failed' };

export type PendingStatus = 'pending_payment' | 'unlocking';

export type UnlockStep =
  | { kind: 'done'; url: string }
  | { kind: 'wait'; ms: number }
  /** forget: the id is no use any more (refused); kept otherwise, for a reload or the link. */
  | { kind: 'stop'; message: string; forget: boolean };

export const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 15_000;
/** Failed calls in a row before the guest is told (pending answers do not count: they are answers). */
export const MAX_FAILURES = 5;
export const LOAD_FAILED = 'Failed to load your unlocked image.';

/** The wait before try number `attempt + 1`: 1 s, doubling, at most 15 s. */
export function unlockRetryDelay(attempt: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempt));
}

/** What to do after an answer, given how many tries came before it and how many failed in a row. */
export function nextUnlockStep(answer: UnlockAnswer, attempt: number, failuresInARow: number): UnlockStep {
  switch (answer.kind) {
    case 'unlocked':
      return { kind: 'done', url: answer.url };
    case 'pending':
      return { kind: 'wait', ms: unlockRetryDelay(attempt) };
    case 'refused':
      return { kind: 'stop', message: answer.message, forget: true };
    case 'failed':
      return failuresInARow >= MAX_FAILURES
        ? { kind: 'stop', message: LOAD_FAILED, forget: false }
        : { kind: 'wait', ms: unlockRetryDelay(attempt) };
  }
}

export interface ConfirmDeps {
  unlock: (enhancementId: string) => Promise<UnlockAnswer>;
  sleep: (ms: number) => Promise<void>;
  /** Each pending answer, for the panel to say what is being waited for. */
  onPending?: (status: PendingStatus) => void;
  /** Stops the loop (the page left): it then answers 'aborted'. */
  signal?: AbortSignal;
}

export type ConfirmOutcome =
  | { kind: 'unlocked'; url: string }
  | { kind: 'stopped'; message: string; forget: boolean }
  | { kind: 'aborted' };

/** Asks until the try is unlocked, refused, or failing; waits between tries as nextUnlockStep says. */
export async function confirmGuestUnlock(enhancementId: string, deps: ConfirmDeps): Promise<ConfirmOutcome> {
  let failures = 0;
  for (let attempt = 0; ; attempt++) {
    if (deps.signal?.aborted) return { kind: 'aborted' };
    const answer = await deps.unlock(enhancementId);
    if (deps.signal?.aborted) return { kind: 'aborted' };
    failures = answer.kind === 'failed' ? failures + 1 : 0;
    if (answer.kind === 'pending') deps.onPending?.(answer.status);
    const step = nextUnlockStep(answer, attempt, failures);
    if (step.kind === 'done') return { kind: 'unlocked', url: step.url };
    if (step.kind === 'stop') return { kind: 'stopped', message: step.message, forget: step.forget };
    await deps.sleep(step.ms);
  }
}

/** Waits ms, or less when the signal aborts (the loop then sees it and stops). */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      done();
    });
  });
}

/** The address that opens a guest's paid result: the payment's own return address. */
export function paidResultLink(origin: string, enhancementId: string): string {
  return `${origin}/?payment=success&enhancement_id=${encodeURIComponent(enhancementId)}`;
}

/** Session storage: this tab's paid try, until it is unlocked (a reload goes on waiting). */
const PAID_TRY_KEY = 'flatlay-paid-guest-try';

export function rememberPaidTry(enhancementId: string): void {
  try {
    globalThis.sessionStorage?.setItem(PAID_TRY_KEY, enhancementId);
  } catch {
    // No session storage: the query and the link still carry the id.
  }
}

export function readPaidTry(): string | null {
  try {
    return globalThis.sessionStorage?.getItem(PAID_TRY_KEY) ?? null;
  } catch {
    return null;
  }
}

export function forgetPaidTry(): void {
  try {
    globalThis.sessionStorage?.removeItem(PAID_TRY_KEY);
  } catch {
    // Nothing stored.
  }
}
