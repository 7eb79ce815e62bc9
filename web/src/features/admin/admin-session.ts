// The operator's session: a bearer token kept as `admin_token`, apart from the customer's
// `auth_token`, so an operator can be signed in to both (or to the dashboard only).
import { useStore } from '../../lib/hydrated';
import { readStored, removeStored, writeStored } from '../../lib/storage';

export const ADMIN_TOKEN_KEY = 'admin_token';

const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

export function readAdminToken(): string | null {
  return readStored(ADMIN_TOKEN_KEY);
}

export function storeAdminToken(token: string): void {
  writeStored(ADMIN_TOKEN_KEY, token);
  emit();
}

/** Logout, or a 401/403 from an admin call: the token goes and the login dialog opens again. */
export function clearAdminToken(): void {
  removeStored(ADMIN_TOKEN_KEY);
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The stored admin token, re-read whenever it is stored or cleared. */
export function useAdminToken(): string | null {
  return useStore(subscribe, readAdminToken, () => null);
}
