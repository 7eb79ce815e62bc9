import { MAIN_TYPES, SUB_TYPES } from '@flatlay/files/uploads';

export { MAIN_TYPES };

/**
 * Who may ask for which enhancement: the four main types, and the first sub-type of each group
 * (what the type chooser picks for everyone), are open to all; choosing any other sub-type is a
 * subscriber's feature.
 */
export const OPEN_SUB_TYPES = ['tops', 'jewelry', 'two_shoe', 'logo_detail'] as const;
const ALL_SUB_TYPES: readonly string[] = Object.values(SUB_TYPES).flat();

export type EnhancementTypeVerdict =
  | { allowed: true; type: string }
  | { allowed: false; reason: 'unknown'; message: string }
  | { allowed: false; reason: 'subscription_required'; message: string };

export function checkEnhancementType(requested: string, activeSubscriber: boolean): EnhancementTypeVerdict {
  const type = requested.trim().toLowerCase() || 'clothing';
  if ((MAIN_TYPES as string[]).includes(type) || (OPEN_SUB_TYPES as readonly string[]).includes(type))
    return { allowed: true, type };
  if (!ALL_SUB_TYPES.includes(type))
    return {
      allowed: false,
      reason: 'unknown',
      message: `Unknown enhancement type "${requested}": use one of ${[...MAIN_TYPES, ...ALL_SUB_TYPES].join(', ')}`,
    };
  if (!activeSubscriber)
    return {
      allowed: false,
      reason: 'subscription_required',
      message: `The "${type}" option needs an active subscription. Choose ${MAIN_TYPES.join(', ')}, or upgrade your plan.`,
    };
  return { allowed: true, type };
}
