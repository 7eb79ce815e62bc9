// Token account commands by outcome: what the ledger was asked to do and what it answered.
import { AppError, instrument } from '@flatlay/platform';
import type { TokenAccountCommand } from '../domain/index.js';

const commands = () =>
  instrument('flatlay.ledger.commands', (meter) =>
    meter.createCounter('flatlay.ledger.commands', {
      description:
        'Token account commands by type and outcome: applied, duplicate (its business key was applied before), refused (a business rule, with its code), conflict (busy account), error',
      unit: '{command}',
    }),
  );

/**
 * The outcome of one command, as a label: `applied` or `duplicate`, a refusal by its code
 * (`refused:INSUFFICIENT_TOKENS`), `conflict`, or `error`. Codes come from the ledger's own
 * refusals, so the set stays small.
 */
export function commandOutcomeLabel(result: { outcome: CommandResult } | { error: unknown }): string {
  if ('outcome' in result) return result.outcome.events.length > 0 ? 'applied' : 'duplicate';
  const error = result.error;
  if (!(error instanceof AppError) || error.code === 'INTERNAL') return 'error';
  // A closed account is refused with CONFLICT too; only a busy one is a conflict.
  if (error.code === 'CONFLICT') return error.details.reason === 'account_closed' ? 'refused:CONFLICT' : 'conflict';
  return `refused:${error.code}`;
}

/** What a command answers, as far as its outcome goes: the events it produced (none: applied before). */
interface CommandResult {
  events: readonly unknown[];
}

/** Counts one command's outcome and passes its result (or its error) on. */
export async function countCommand<R extends CommandResult>(
  command: TokenAccountCommand,
  run: () => Promise<R>,
): Promise<R> {
  try {
    const outcome = await run();
    commands().add(1, { 'flatlay.command': command.type, 'flatlay.outcome': commandOutcomeLabel({ outcome }) });
    return outcome;
  } catch (error) {
    commands().add(1, { 'flatlay.command': command.type, 'flatlay.outcome': commandOutcomeLabel({ error }) });
    throw error;
  }
}
