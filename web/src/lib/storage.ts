/**
 * Every value the web app keeps in localStorage, under the names the original client used, so a
 * browser that already holds them keeps its session and its pending purchases.
 */
export const storageKeys = {
  authToken: 'auth_token',
  /** Older clients stored the session here; it is still read, never written. */
  legacyAuthToken: 'jwt_token',
  enhancementType: 'enhancement_type',
  introPlayed: 'flatlay-intro-played',
  pendingTokenUnlock: 'pending_token_unlock_request',
  pendingUnlockReturnUrl: 'pending_unlock_return_url',
} as const;

/** localStorage can throw (privacy modes, quota): the app then behaves as if nothing were stored. */
export function readStored(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Nothing to do: the value lives for this page only.
  }
}

export function removeStored(key: string): void {
  try {
    globalThis.localStorage?.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

export function readAuthToken(): string | null {
  return readStored(storageKeys.authToken) ?? readStored(storageKeys.legacyAuthToken);
}

export function storeAuthToken(token: string): void {
  writeStored(storageKeys.authToken, token);
}

export function clearAuthToken(): void {
  removeStored(storageKeys.authToken);
  removeStored(storageKeys.legacyAuthToken);
}
