// Two consents, kept apart (docs/decisions/0804-consent-and-tracking.md):
// - the sign-up consent line (policies, being at least 18): every way of creating an account shows
//   it and sends SIGN_UP_CONSENT_VERSION, which the server records with the account and the time;
// - the cookie choice for the marketing pixels: nothing of a pixel loads until the visitor accepts;
//   the choice stays in local storage and the footer's Cookie settings opens the banner again.
import { useStore } from './hydrated';

/** The version of ConsentLine's text. Change it whenever that text changes. */
export const SIGN_UP_CONSENT_VERSION = '2026-11-signup-18plus';

export type CookieChoice = 'accepted' | 'rejected';
export const COOKIE_CHOICE_KEY = 'cookie_consent';

const listeners = new Set<() => void>();
let bannerOpen = false;
const notify = () => {
  for (const l of listeners) l();
};

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage blocked: no choice is remembered, so none counts as given
  }
}

/** The visitor's remembered choice; null until one is made (or when storage is unavailable). */
export function cookieChoice(): CookieChoice | null {
  const v = storage()?.getItem(COOKIE_CHOICE_KEY);
  return v === 'accepted' || v === 'rejected' ? v : null;
}

/** Marketing pixels may load and send only after an explicit accept. */
export const marketingAllowed = (): boolean => cookieChoice() === 'accepted';

export function setCookieChoice(choice: CookieChoice): void {
  try {
    storage()?.setItem(COOKIE_CHOICE_KEY, choice);
  } catch {
    // storage full or blocked: the choice holds for this page only
  }
  bannerOpen = false;
  notify();
}

/** The footer's Cookie settings: shows the banner again, whatever was chosen before. */
export function openCookieSettings(): void {
  bannerOpen = true;
  notify();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => `${bannerOpen}:${cookieChoice() ?? ''}`;

/** The choice and whether the visitor asked to see the settings, re-rendering on every change. */
export function useCookieConsent(): { choice: CookieChoice | null; settingsOpen: boolean } {
  const s = useStore(subscribe, snapshot, () => 'false:');
  const [open, choice] = s.split(':');
  return { choice: choice === 'accepted' || choice === 'rejected' ? choice : null, settingsOpen: open === 'true' };
}
