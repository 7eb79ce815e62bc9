import { ApiError } from '../api/http';
import { readStored, removeStored, storageKeys } from '../lib/storage';

export type PendingUnlockOutcome = 'none' | 'unlocked' | 'gone' | 'kept';

/**
 * A guest who chose "unlock with tokens" had to sign in first; the enhancement id waited in
 * localStorage. After sign-in it is tried once: removed on success or when the server no longer
 * knows it, kept for the next sign-in otherwise.
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
    return 'kept';
  }
}
