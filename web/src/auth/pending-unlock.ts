import { ApiError } from '../api/http';
import { readStored, removeStored, storageKeys, writeStored } from '../lib/storage';

export type PendingUnlockOutcome = 'none' | 'unlocked' | 'gone' | 'insufficient' | 'kept';

/**
 * A guest chose "unlock with tokens" on their try: the enhancement id waits in localStorage (under
 * the original client's key) while they sign in or sign up, and is tried then.
 */
export function rememberTokenUnlock(enhancementId: string): void {
  writeStored(storageKeys.pendingTokenUnlock, enhancementId);
}

/**
 * After sign-in the waiting id is tried once: removed on success or when the server no longer
 * knows it, kept for the next sign-in otherwise (too few tokens now: buying some and signing in
 * again still unlocks it).
 */
export async function retryPendingTokenUnlock(unlock: (id: string) => Promise<unknown>): Promise<PendingUnlockOutcome> {
  const id = readStored(storageKeys.pendingTokenUnlock);
  if (!id) return 'none';
  try {
    await unlock(id);
    removeStored(storageKeys.pendingTokenUnlock);
    return 'unlocked';
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      removeStored(storageKeys.pendingTokenUnlock);
      return 'gone';
    }
    if (error instanceof ApiError && error.status === 402) return 'insufficient';
    return 'kept';
  }
}

export interface UnlockToast {
  title: string;
  description: string;
  variant?: 'destructive';
}

/** What the person is told about the retried unlock (the specification's token unlock messages). */
export function pendingUnlockToast(outcome: PendingUnlockOutcome): UnlockToast | null {
  switch (outcome) {
    case 'none':
      return null;
    case 'unlocked':
      return { title: 'Image Unlocked', description: 'Your enhanced image is unlocked in your dashboard.' };
    case 'insufficient':
      return {
        title: 'Insufficient Tokens',
        description: "You don't have enough tokens to unlock this image.",
        variant: 'destructive',
      };
    case 'gone':
      return {
        title: 'Image Not Found',
        description: 'The image you chose to unlock no longer exists.',
        variant: 'destructive',
      };
    case 'kept':
      return {
        title: 'Unlock Failed',
        description: 'Your image could not be unlocked now; it is tried again when you next sign in.',
        variant: 'destructive',
      };
  }
}
