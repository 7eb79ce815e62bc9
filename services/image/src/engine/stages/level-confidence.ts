/**
 * Whether the engine may turn the product: a pure decider over the two estimates straighten.ts
 * makes (the angle of best mirror symmetry, the principal axis). A wrong rotation is worse than
 * none: a photo left as it was shot looks casual, a product turned by 6° the wrong way looks
 * broken. So a rotation is applied only when its evidence is sound; otherwise the product is left
 * as shot and the result says so (the 'level confirmed' check fails).
 */

/** Largest correction either estimate searches (degrees). */
export const MAX_CORRECTION_DEG = 20;

/**
 * Mirror score (share of the shape that coincides with its mirror image) from which the best
 * mirror axis is trusted alone. Garments laid flat and bags seen from the front score 0.95-0.99 in
 * the eval's scenes (folds, a sleeve bent a little); a bag seen three-quarter scores 0.93, and its
 * best mirror axis is then 6° off. Below this a second estimate must agree.
 */
export const SURE_MIRROR_SCORE = 0.94;

/** Below this mirror score the shape has no useful axis of symmetry at all. */
export const USABLE_MIRROR_SCORE = 0.8;

/** The principal axis only means something for a shape longer than it is wide. */
export const USABLE_ELONGATION = 1.25;

/** Two estimates within this many degrees confirm each other. */
export const AGREEMENT_DEG = 2;

/**
 * An angle this close to the search limit may be the limit, not the answer: the best angle may
 * lie beyond it (the product was shot more askew than the engine corrects, or the shape misleads).
 */
export const LIMIT_MARGIN_DEG = 1;

/**
 * Share of the outline on straight sides (each at least a fifth of the product's length, level and
 * upright once turned) from which those sides level the product alone (straighten.ts,
 * edgeCorrection): a box scores about 1, a disc 0.
 */
export const CLEAR_EDGE_STRENGTH = 0.5;

/**
 * Elongation from which the long axis levels the product alone when the mirror axis is weak: a belt,
 * a scarf, a folded garment twice as long as wide. Between USABLE_ELONGATION and this, the long
 * axis only confirms a mirror axis (a bag seen three-quarter is 1.4 long, its axis 6° off).
 */
export const CLEAR_ELONGATION = 2;

export type LevelStrategy = 'symmetry' | 'principal' | 'none';

export interface LevelEvidence {
  strategy: LevelStrategy;
  /** Best correction by mirror symmetry and its score; null when it was not needed. */
  symmetry: { deg: number; score: number } | null;
  /** Correction that brings the principal axis to the nearest of horizontal/vertical. */
  principal: { deg: number; elongation: number };
  /**
   * The product runs into the photo's edge (frame-contact.ts). Both estimates then see the same
   * truncated shape, so the long axis agreeing with a weak mirror axis confirms nothing.
   */
  cutByFrame?: boolean;
  /**
   * Correction that brings the outline's straight edges to horizontal and vertical, and the share of
   * the outline along them (straighten.ts, edgeCorrection); null or absent when it was not needed.
   */
  edges?: { deg: number; strength: number } | null;
}

export interface LevelDecision {
  /** Rotation to apply, degrees clockwise (0 when unsure). */
  deg: number;
  /**
   * False when the product's level could not be confirmed: a rotation was called for without sound
   * evidence (and was not applied), or a weak mirror axis called the product upright.
   */
  sure: boolean;
  /** Why, in words, for the result's checks. */
  detail: string;
}

const nearLimit = (deg: number) => Math.abs(deg) > MAX_CORRECTION_DEG - LIMIT_MARGIN_DEG;
const f = (deg: number) => `${deg.toFixed(1)}°`;

export function principalUsable(p: LevelEvidence['principal']): boolean {
  return p.elongation >= USABLE_ELONGATION && Math.abs(p.deg) <= MAX_CORRECTION_DEG;
}

/** Does the evidence need the symmetry estimate (so callers can skip the search when it does not)? */
export function needsSymmetry(strategy: LevelStrategy, principal: LevelEvidence['principal']): boolean {
  return strategy === 'symmetry' || (strategy === 'principal' && !principalUsable(principal));
}

export function decideLevel(e: LevelEvidence): LevelDecision {
  if (e.strategy === 'none') return { deg: 0, sure: true, detail: 'not levelled for this product type' };
  const p = e.principal;
  const pcaUsable = principalUsable(p);
  const unsure = (proposed: number, why: string): LevelDecision => ({
    deg: 0,
    sure: false,
    detail: `left as shot: a rotation of ${f(proposed)} was not applied: ${why}`,
  });
  if (e.strategy === 'principal' && pcaUsable) {
    if (nearLimit(p.deg)) return unsure(p.deg, `the long axis is at the ${MAX_CORRECTION_DEG}° limit`);
    return { deg: p.deg, sure: true, detail: `levelled by the long axis (${f(p.deg)})` };
  }
  // the outline itself, where the mirror axis cannot settle the level: clear straight edges, or a
  // clearly long shape (not one cut by the frame, whose cut side and length are the frame's)
  const fromOutline = (why: string): LevelDecision | null => {
    const edges = e.edges;
    if (edges && !e.cutByFrame && edges.strength >= CLEAR_EDGE_STRENGTH) {
      if (nearLimit(edges.deg)) return unsure(edges.deg, `its straight edges are at the ${MAX_CORRECTION_DEG}° limit`);
      const share = `${Math.round(edges.strength * 100)}% of the outline`;
      if (edges.deg === 0) return { deg: 0, sure: true, detail: `upright by its straight edges (${share}; ${why})` };
      return {
        deg: edges.deg,
        sure: true,
        detail: `levelled by its straight edges (${f(edges.deg)}, ${share}; ${why})`,
      };
    }
    if (pcaUsable && !e.cutByFrame && p.elongation >= CLEAR_ELONGATION) {
      if (nearLimit(p.deg)) return unsure(p.deg, `the long axis is at the ${MAX_CORRECTION_DEG}° limit`);
      const long = `${p.elongation.toFixed(1)} times as long as wide`;
      return { deg: p.deg, sure: true, detail: `levelled by its long axis (${f(p.deg)}, ${long}; ${why})` };
    }
    return null;
  };
  const s = e.symmetry;
  if (s && s.score >= USABLE_MIRROR_SCORE) {
    if (nearLimit(s.deg)) return unsure(s.deg, `the mirror axis is at the ${MAX_CORRECTION_DEG}° limit`);
    const score = s.score.toFixed(2);
    const agrees = pcaUsable && !e.cutByFrame && Math.abs(p.deg - s.deg) <= AGREEMENT_DEG;
    if (s.score < SURE_MIRROR_SCORE && !agrees) {
      const noSecond = e.cutByFrame ? 'the product is cut by the frame' : 'the long axis does not confirm it';
      const why = `mirror score ${s.score.toFixed(3)} is under ${SURE_MIRROR_SCORE} and ${noSecond}`;
      const outline = fromOutline(`mirror score ${s.score.toFixed(3)} too weak to level by`);
      if (outline) return outline;
      // a weak axis that calls the product upright is no more proof of level than one that would turn it
      if (s.deg === 0) return { deg: 0, sure: false, detail: `left as shot, its level unconfirmed: ${why}` };
      return unsure(s.deg, why);
    }
    const how = s.score >= SURE_MIRROR_SCORE ? `mirror score ${score}` : `mirror score ${score}, the long axis agrees`;
    if (s.deg === 0) return { deg: 0, sure: true, detail: `upright (${how})` };
    return { deg: s.deg, sure: true, detail: `levelled by mirror symmetry (${how})` };
  }
  const outline = fromOutline(s ? `no usable mirror axis (score ${s.score.toFixed(3)})` : 'no usable mirror axis');
  if (outline) return outline;
  // no usable mirror axis: a short shape's long axis alone, for a shape that should have had one, is a guess
  if (pcaUsable && Math.abs(p.deg) > 0)
    return unsure(p.deg, 'the product is not mirror-symmetric, and its long axis alone does not show level');
  // nothing in the shape to level by (a round product): no rotation could be right or wrong
  return { deg: 0, sure: true, detail: 'left as shot: no mirror axis, long axis or straight edges to level by' };
}
