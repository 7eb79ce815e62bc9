/**
 * The side of the square the segmentation model runs at. ISNet was trained and exported at 1024;
 * the prepared model files take any size (free-input-size.ts), and inference time falls with the
 * square of the side (1024: ~1.6 s, 640: ~0.65 s, 576: ~0.53 s on 2 cores). The default is the
 * smallest measured size whose eval figures stay within 0.005 IoU of 1024's and within every
 * quality target (docs/benchmarks.md, "Inference size"): 512 keeps the synthetic medians but loses
 * 0.010 IoU on a hand-masked casual photo; 576 and 640 lose nothing measurable. The mask's edges
 * are refined against the photo at the mask's own resolution (stages/refine-edges.ts).
 */
export const DEFAULT_INFERENCE_SIZE = 576;
/** Multiples of 32, ISNet's deepest downsampling, so every level of the network has whole sizes. */
export const INFERENCE_SIZE_STEP = 32;
export const MIN_INFERENCE_SIZE = 256;
export const MAX_INFERENCE_SIZE = 1024;

export function isInferenceSize(n: number): boolean {
  return Number.isInteger(n) && n >= MIN_INFERENCE_SIZE && n <= MAX_INFERENCE_SIZE && n % INFERENCE_SIZE_STEP === 0;
}
