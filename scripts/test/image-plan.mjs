// When `npm test` needs the container image finished before vitest starts (ADR 0304). The container
// tier waits for the image less than 100 s (tests/container/support/podman.ts), so a build that can
// take longer, or one the tier would start waiting on at once, is finished first, its time printed.

/** The tiers whose files scripts/test/sequencer.ts starts before the container tier's. */
export const TIERS_BEFORE_CONTAINER = Object.freeze(['fault', 'k8s', 'e2e']);

/** vitest's workers (vitest.config.ts, maxWorkers): the first this many files start at once. */
const WORKERS = 2;

/**
 * Whether the image is awaited before the tests start: when the run has the container tier and
 * either the build is long (`cold`: no cached base or dependency layer, minutes) or the container
 * tier's file would start with vitest (fewer slower tiers' files before it than workers), its wait
 * beginning as the build's last seconds do. Otherwise the quick build goes on beside those files,
 * the first of which has to end before the container tier starts (a full run has ten, minutes long).
 * @param {{ tiers: readonly string[], cold: boolean }} run the tiers of the run's files
 * @returns {boolean}
 */
export function imageBeforeTests({ tiers, cold }) {
  if (!tiers.includes('container')) return false;
  return cold || tiers.filter((t) => TIERS_BEFORE_CONTAINER.includes(t)).length < WORKERS;
}
