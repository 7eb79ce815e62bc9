/**
 * What the public pages claim about speed and size: only figures the product has measured, each
 * with its source, so no page states a round number nobody can show (issue 28, item 11). A new
 * measurement in docs/benchmarks.md ("Current figures") updates these lines.
 */

/**
 * docs/benchmarks.md, "Engine: 12 MP → 2048 px, median": 881 and 893 ms on the development
 * machine (2 cores, no GPU), 2026-11-25. The queue figure is "Generation through the gateway,
 * 20 users at once": upload to completed p50 24.0 s (3 MP photos), 2026-11-24.
 */
export const MEASURED_SPEED = {
  short: 'About 0.9 s of processing per 12 MP photo, measured on a 2-core server without a GPU.',
  long:
    'About 0.9 s of processing for a 12 MP photo, measured on a 2-core server without a GPU. ' +
    'Photos wait their turn when many arrive together: with 20 sellers uploading at once, half had their result within 24 s. ' +
    'You can watch the progress in the preview.',
};

/**
 * The engine's default output (services/image/src/engine/pipeline.ts DEFAULT_SIZE, the JPEG on
 * white of app/output-options.ts) and its preview (engine/stages/deliver.ts PREVIEW_LONG_SIDE);
 * the /api takes no other size.
 */
export const OUTPUT_SIZE =
  'Every result is a 2048 px JPEG (its long side) on a white background, ready for store and marketplace listings.';
