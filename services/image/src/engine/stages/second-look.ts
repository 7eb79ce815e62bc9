import type { SegmentationModel } from '../model/session.js';
import type { Mask, RawImage } from '../types.js';
import { SURE } from './mask-cleanup.js';
import { type Segmentation, segment } from './segment.js';

/**
 * A second look at a larger side when the model is unsure of nearly everything it calls product.
 *
 * At the engine's 576 px inference the model now and then loses its grip on a whole product: a
 * pink hoodie with white drawstrings on pale tiles came out 2.6% sure (of the pixels it put above
 * one half, the share above SURE), the hoodie's left half missing (IoU 0.22), where every other
 * scene of the eval is 91% sure or more. At 768 or 1024 px the same model reads it (IoU 0.98). So
 * when the first pass is sure of less than SECOND_LOOK_BELOW of its product, the photo is segmented
 * again at SECOND_LOOK_SIZE and the surer of the two answers is kept: the cost (one larger
 * inference) falls on those photos only.
 */

/** Below this share of sure pixels among the product's, the first pass gets a second look. */
export const SECOND_LOOK_BELOW = 0.5;
/** The side of the second look (the peer's and the model's own training size). */
export const SECOND_LOOK_SIZE = 1024;

/** Of the pixels the model puts above one half, the share it is sure of (at least SURE); 1 when there are none. */
export function sureShare(prob: Mask): number {
  let product = 0,
    sure = 0;
  for (const v of prob.data)
    if (v >= 128) {
      product++;
      if (v >= SURE) sure++;
    }
  return product === 0 ? 1 : sure / product;
}

/** segment(), with a second look at SECOND_LOOK_SIZE where the first pass is unsure of its product. */
export async function segmentWithSecondLook(
  image: RawImage,
  model: SegmentationModel,
): Promise<Segmentation & { secondLook: boolean }> {
  const first = await segment(image, model);
  const firstSure = sureShare(first);
  const larger = model.inputSize < SECOND_LOOK_SIZE ? model.atSize?.(SECOND_LOOK_SIZE) : undefined;
  if (firstSure >= SECOND_LOOK_BELOW || !larger) return { ...first, secondLook: false };
  const second = await segment(image, larger);
  return sureShare(second) > firstSure ? { ...second, secondLook: true } : { ...first, secondLook: true };
}
