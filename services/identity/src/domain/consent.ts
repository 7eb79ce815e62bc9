// The sign-up consent a client says the person saw: a short version label of the consent text
// (the web app's, e.g. `2026-11-signup-18plus`), recorded with the account (ADR 0804).

export const CONSENT_VERSION_MAX_LENGTH = 64;
/** Letters, digits, dots, dashes and underscores: a label, never free text. */
const CONSENT_VERSION = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const CONSENT_VERSION_INVALID = `consent_version must be a label of at most ${CONSENT_VERSION_MAX_LENGTH} letters, digits, dots, dashes or underscores`;

/** Why a given consent version is refused; undefined when it is fine or absent (empty). */
export function consentVersionProblem(version: string): string | undefined {
  if (!version) return undefined;
  return version.length <= CONSENT_VERSION_MAX_LENGTH && CONSENT_VERSION.test(version)
    ? undefined
    : CONSENT_VERSION_INVALID;
}

/** What is stored with a new account: the version and the instant, or nothing when none was given. */
export function consentRecord(version: string, now: Date): { version: string; at: Date } | null {
  return version ? { version, at: now } : null;
}
