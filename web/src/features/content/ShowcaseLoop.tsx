import { useEffect, useState } from 'react';
import pairs from './showcase-pairs.json';
import { ShowcasePicture } from './ShowcasePicture';

/** The loop's box: at most 240 px wide (styles.css, .showcase-loop). */
const LOOP_SIZES = '240px';

/** The pairs the loop plays: photo, then its flat-lay, each for LOOP_STEP_SECONDS. */
export const LOOP_PAIRS = pairs.slice(0, 3);
export const LOOP_STEP_SECONDS = 2.5;

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * The specification's loop animation: three of the showcase pairs, each photo fading into its
 * flat-lay, in a square of fixed size (nothing moves around it). Pure CSS, lazily loaded below the
 * fold; a visitor who asks for reduced motion sees one still flat-lay instead. Decorative: the same
 * pairs are in the showcase beside it, with their words.
 */
export function ShowcaseLoop() {
  // Asked after mount, not in the first render: a prerendered page must hydrate to the build's
  // markup (ADR 0714). Until then the CSS media query already holds the loop still.
  const [still, setStill] = useState(false);
  useEffect(() => {
    const query = window.matchMedia?.(REDUCED_MOTION);
    if (!query) return;
    const change = () => setStill(query.matches);
    change();
    query.addEventListener?.('change', change);
    return () => query.removeEventListener?.('change', change);
  }, []);
  const frames = still ? [LOOP_PAIRS[0]!.after] : LOOP_PAIRS.flatMap((p) => [p.before, p.after]);
  return (
    <div
      className={`showcase-loop${still ? ' showcase-loop--still' : ''}`}
      aria-hidden="true"
      data-testid="showcase-loop"
      style={{ ['--loop-duration' as string]: `${frames.length * LOOP_STEP_SECONDS}s` }}
    >
      {frames.map((name, i) => (
        <ShowcasePicture
          key={name}
          name={name}
          alt=""
          sizes={LOOP_SIZES}
          style={still ? undefined : { animationDelay: `${i * LOOP_STEP_SECONDS}s` }}
        />
      ))}
    </div>
  );
}
