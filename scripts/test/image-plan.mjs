// When `npm test` needs the container image finished before vitest starts (ADR 0304). The container
// tier waits for the image less than 100 s (tests/container/support/podman.ts), so a build that can
// take longer, or one the tier would start waiting on at once, is finished first, its time printed.

/** The tiers whose files scripts/test/sequencer.ts starts before the container tier's. */
export const TIERS_BEFORE_CONTAINER = Object.freeze(['fault', 'k8s', 'e2e']);

/**
 * Whether the image is awaited before the tests start: when the run has the container tier and
 * either the build is long (`cold`: no cached base or dependency layer, minutes) or no slower
 * tier's file starts before the container tier's (its wait would begin as the build does).
 * Otherwise the quick build goes on beside those files, which run minutes.
 * @param {{ tiers: readonly string[], cold: boolean }} run the tiers of the run's files
 * @returns {boolean}
 */
export function imageBeforeTests({ tiers, cold }) {
  if (!tiers.includes('container')) return false;
  return cold || !tiers.some((t) => TIERS_BEFORE_CONTAINER.includes(t));
}
