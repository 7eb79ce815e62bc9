import type { SubscriptionProduct } from '../../api/schema';
import { formatCount } from '../../lib/format-count';

export type Cycle = 'monthly' | 'yearly';

const ADVANCED_PROMPTING = 'Advanced Prompting Options';
/** A catalogue feature that states a token count ("1700 tokens a month"): the card states it already. */
const TOKEN_COUNT = /^\s*[\d,.]+\s+tokens?\b/i;

/**
 * The checklist of a plan card: its token count once (for the chosen billing period), then the
 * plan's first two other features, then Advanced Prompting Options. The catalogue's features also
 * name the monthly token count; shown as well, the card said it twice (and the monthly figure
 * beside the yearly one). Advanced Prompting Options only where a generative provider is
 * configured (GET /api/images/options): elsewhere the card would promise what no job can do.
 */
export function planCardLines(
  plan: Pick<SubscriptionProduct, 'features' | 'tokens_per_month'>,
  cycle: Cycle,
  advancedPrompting = false,
): string[] {
  const tokens = cycle === 'yearly' ? plan.tokens_per_month * 12 : plan.tokens_per_month;
  const others = plan.features.filter((f) => !TOKEN_COUNT.test(f) && f !== ADVANCED_PROMPTING).slice(0, 2);
  return [
    `${formatCount(tokens)} tokens a ${cycle === 'yearly' ? 'year' : 'month'}`,
    ...others,
    ...(advancedPrompting ? [ADVANCED_PROMPTING] : []),
  ];
}
