// The CPU slowdown that makes this host emulate Lighthouse's phone (ADR 0721): `npm run bench:web`
// prints each page's performance at it beside Lighthouse's own score, so that figures taken on two
// hosts compare.
//
// Lighthouse's simulated throttling multiplies the CPU time the page took on the host by
// `cpuSlowdownMultiplier` (4 by default). That 4 fits a host with a benchmark index near 1533. On a
// slower host the same 4 emulates a slower phone than Lighthouse means (Lighthouse warns under an
// index of 1000 and points to its throttling docs, "calibrating multipliers"); on a faster host, a
// faster phone. The curve below is the one of Lighthouse's CPU throttling calculator (linked from
// those docs): piecewise linear, 150 -> 1x, 800 -> 2x, 1300 -> 3x, 1533 -> 4x, 2000 -> 6x, and on
// along the last piece.

/** Under this index the host is slower than the phone itself: no slowdown can emulate it. */
export const SLOWEST_CALIBRATED_INDEX = 150;

/**
 * The slowdown for a host whose Lighthouse benchmark index (`lhr.environment.benchmarkIndex`) is `index`;
 * undefined where no slowdown emulates the phone (an index under 150, or none measured).
 * @param {number} index
 * @returns {number | undefined}
 */
export function slowdownFor(index) {
  if (!Number.isFinite(index) || index < SLOWEST_CALIBRATED_INDEX) return undefined;
  if (index >= 1300) return 3 + (index - 1300) / 233;
  if (index >= 800) return 2 + (index - 800) / 500;
  return 1 + (index - 150) / 650;
}
