import { SUB_TYPES } from '@flatlay/files/uploads';
import type { LevelStrategy } from '../stages/straighten.js';

/** How one kind of product is laid out on its canvas. */
export interface Recipe {
  type: EnhancementType;
  subType: SubType;
  /** cutout: the product alone on a studio background; crop: a sharpened close-up, not cut out. */
  mode: 'cutout' | 'crop';
  /** Canvas width / height. */
  aspect: number;
  /** Empty space on each side, as a share of the canvas side. */
  margin: number;
  level: LevelStrategy;
  /**
   * Hanger parts to cut from above the product: 'hooks' (a hook or bar over the middle; thin parts
   * off-centre stay, they may be a top's straps) or 'hooks-and-clips' (also the clips of a skirt
   * hanger at the waistband's corners: trousers and skirts have nothing thin above the waist).
   */
  removeHanger: false | 'hooks' | 'hooks-and-clips';
  /** Lay two separate parts (a pair of shoes) side by side on one baseline. */
  pairSideBySide: boolean;
  /** Centre on the axis of symmetry (true) or on the bounding box (false, e.g. a shoe's side). */
  centreOnSymmetry: boolean;
  /** Unsharp-mask strength applied to the product. */
  sharpen: number;
}

// The types and sub-types are agreed with the gateway (which validates requests against them).
export { SUB_TYPES };

export type EnhancementType = keyof typeof SUB_TYPES;
export type SubType = (typeof SUB_TYPES)[EnhancementType][number];
