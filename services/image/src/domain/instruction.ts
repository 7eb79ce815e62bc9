/**
 * Advanced prompting (#28, the spec's subscription feature): a subscriber may add a short
 * instruction to a generation, which the generative provider reads after the type's prompt.
 * Only where it can be honoured: a provider configured, the caller's plan one it serves and
 * active. Too long is a bad request; the others are refused like the plans' sub-types on the same
 * call (UNPROCESSABLE, 422: a business refusal, never 403, on which the web app signs out).
 */
export const INSTRUCTION_MAX_LENGTH = 300;

export type InstructionVerdict =
  | { allowed: true; instruction: string | null }
  | { allowed: false; reason: 'too_long' | 'not_configured' | 'subscription_required'; message: string };

export interface PromptingContext {
  /** The plans the generative provider serves; undefined when no provider is configured. */
  providerPlans: readonly string[] | undefined;
  /** The caller's plan as identity last announced it; undefined for guests and the never subscribed. */
  plan: { plan: string; status: string } | undefined;
}

/** Who may prompt, and how much: blank is no instruction (always allowed). */
export function checkInstruction(raw: string | undefined, ctx: PromptingContext): InstructionVerdict {
  const instruction = (raw ?? '').trim();
  if (!instruction) return { allowed: true, instruction: null };
  if (instruction.length > INSTRUCTION_MAX_LENGTH)
    return {
      allowed: false,
      reason: 'too_long',
      message: `The instruction is too long: at most ${INSTRUCTION_MAX_LENGTH} characters.`,
    };
  if (!ctx.providerPlans)
    return {
      allowed: false,
      reason: 'not_configured',
      message: 'Advanced prompting is not available: no generative provider is configured.',
    };
  const plan = ctx.plan;
  if (plan?.status !== 'active' || !ctx.providerPlans.includes(plan.plan.toLowerCase()))
    return {
      allowed: false,
      reason: 'subscription_required',
      message: 'Advanced prompting needs an active subscription to a plan that includes it.',
    };
  return { allowed: true, instruction };
}
