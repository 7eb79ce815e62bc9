import { SUB_TYPES } from '../../engine/recipes/recipe.js';
import type { GenerativeSettings } from './settings-source.js';

/** A user's plan as identity last announced it (none for guests and users never subscribed). */
export interface PlanOfUser {
  plan: string;
  status: string;
}

export type ProviderChoice = { provider: 'local' } | { provider: 'generative'; prompt: string };

export const DEFAULT_PROMPT =
  'Turn this casual product photo into a professional e-commerce studio flat-lay: the same product, ' +
  'unchanged in shape, colour, print and text, laid flat and centred on a plain white background, ' +
  'evenly lit, with no props, hands or people.';

const mainTypeOf = (type: string): string | undefined =>
  Object.entries(SUB_TYPES).find(([main, subs]) => main === type || (subs as readonly string[]).includes(type))?.[0];

/**
 * Which engine makes a job's result: the generative provider only when it is switched on and the
 * owner's plan is one it is on for (and active); everyone else, guests included, gets the local
 * engine. The prompt is the job's sub-type's, else its main type's, else the default.
 */
export function chooseProvider(
  settings: GenerativeSettings | undefined,
  plan: PlanOfUser | undefined,
  enhancementType: string,
): ProviderChoice {
  if (!settings || !plan || plan.status !== 'active') return { provider: 'local' };
  if (!settings.plans.includes(plan.plan.toLowerCase())) return { provider: 'local' };
  const main = mainTypeOf(enhancementType);
  const prompt = settings.prompts[enhancementType] ?? (main ? settings.prompts[main] : undefined) ?? DEFAULT_PROMPT;
  return { provider: 'generative', prompt };
}

/**
 * The prompt with a subscriber's instruction (advanced prompting, #28) after it: the type's
 * prompt stays first, so the instruction refines the flat-lay rather than replacing it.
 */
export function withInstruction(prompt: string, instruction: string | null | undefined): string {
  const extra = instruction?.trim();
  return extra ? `${prompt}\n\nThe customer's own instruction for this photo: ${extra}` : prompt;
}
