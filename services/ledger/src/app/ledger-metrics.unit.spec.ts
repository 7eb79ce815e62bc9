import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { AppError } from '@flatlay/platform';
import { initialState } from '../domain/index.js';
import { commandOutcomeLabel } from './ledger-metrics.js';

describe('ledger command outcome labels', () => {
  const outcome = (events: number) => ({
    balance: 0,
    events: Array.from({ length: events }, () => ({ type: 'TokensGranted', data: {} }) as never),
    state: initialState(),
  });

  it('tells an applied command from one whose business key was applied before', () => {
    assert.equal(commandOutcomeLabel({ outcome: outcome(1) }), 'applied');
    assert.equal(commandOutcomeLabel({ outcome: outcome(0) }), 'duplicate');
  });

  it('names a refusal by its code, a busy account as a conflict, and anything else as an error', () => {
    assert.equal(
      commandOutcomeLabel({ error: new AppError('INSUFFICIENT_TOKENS', 'no') }),
      'refused:INSUFFICIENT_TOKENS',
    );
    assert.equal(commandOutcomeLabel({ error: new AppError('CONFLICT', 'busy') }), 'conflict');
    assert.equal(
      commandOutcomeLabel({ error: new AppError('CONFLICT', 'closed', { reason: 'account_closed' }) }),
      'refused:CONFLICT',
    );
    assert.equal(commandOutcomeLabel({ error: new AppError('INTERNAL', 'bug') }), 'error');
    assert.equal(commandOutcomeLabel({ error: new Error('database away') }), 'error');
  });
});
