import { randomUUID } from 'node:crypto';
import { AppError, EventStore, VersionConflict, withTransaction, type Pool, type Queryable } from '@flatlay/platform';
import {
  evolve, initialState, isTokenAccountRefusal, tokenAccount, type TokenAccountCommand, type TokenAccountEvent, type TokenAccountRefusal, type TokenAccountState,
} from '../domain/index.js';
import { projectAccountEvents } from '../projections/account-projection.js';
import { KeyedSerializer } from './account-lock.js';
import { toOutboxMessages } from './ledger-events.js';

export const accountStream = (userId: string) => `account-${userId}`;

export interface CommandOutcome {
  /** The balance after the command (unchanged when it was already applied). */
  balance: number;
  /** Events the command produced: none when its business key was applied before. */
  events: TokenAccountEvent[];
  state: TokenAccountState;
}

interface Loaded {
  state: TokenAccountState;
  version: number;
}

const MAX_ATTEMPTS = 20;
const CACHE_LIMIT = 10_000;

/**
 * Runs TokenAccount commands: load the stream, decide, and append the events together with
 * their outbox messages and read-model rows in one transaction. A concurrent writer makes the
 * append fail its version check; the command is then decided again on the fresh stream.
 */
export class TokenAccounts {
  private readonly store: EventStore;
  private readonly serializer = new KeyedSerializer();
  /** Folded state of recently used accounts, valid only as far as its version; never trusted blindly. */
  private readonly cache = new Map<string, Loaded>();

  constructor(private readonly pool: Pool) {
    this.store = new EventStore(pool);
  }

  /** Executes in its own transaction, or inside `tx` (a consumer's inbox transaction). */
  execute(userId: string, command: TokenAccountCommand, tx?: Queryable): Promise<CommandOutcome> {
    if (!userId) throw new AppError('INVALID_ARGUMENT', 'A user id is required');
    return this.serializer.run(userId, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          if (tx) {
            // Inside a caller's transaction the cache cannot be updated (it may roll back).
            this.cache.delete(userId);
            return await this.decideAndAppend(tx, userId, command);
          }
          const outcome = await withTransaction(this.pool, (own) => this.decideAndAppend(own, userId, command));
          this.remember(userId, outcome.loaded);
          return outcome;
        } catch (error) {
          if (error instanceof VersionConflict && attempt < MAX_ATTEMPTS) {
            this.cache.delete(userId);
            continue;
          }
          if (error instanceof VersionConflict) throw new AppError('CONFLICT', 'This account is busy; please try again');
          if (isTokenAccountRefusal(error)) throw refusalToAppError(error);
          throw error;
        }
      }
    });
  }

  private async decideAndAppend(db: Queryable, userId: string, command: TokenAccountCommand): Promise<CommandOutcome & { loaded: Loaded }> {
    const loaded = await this.load(db, userId);
    const events = tokenAccount.decide(command, loaded.state);
    if (events.length === 0) return { balance: loaded.state.balance, events, state: loaded.state, loaded };
    const balances: number[] = [];
    let state = loaded.state;
    for (const event of events) {
      state = evolve(state, event);
      balances.push(state.balance);
    }
    const eventIds = events.map(() => randomUUID());
    await this.store.appendInTransaction(db, accountStream(userId), events, {
      expectedVersion: loaded.version,
      eventIds,
      outbox: toOutboxMessages(userId, loaded.version + 1, eventIds, events, balances),
    });
    const version = loaded.version + events.length;
    await projectAccountEvents(
      db,
      { userId, balance: state.balance, version, closed: state.status === 'closed' },
      events.map((event, i) => ({ eventId: eventIds[i]!, streamPosition: loaded.version + 1 + i, type: event.type, data: event.data })),
      loaded.state.balance,
    );
    return { balance: state.balance, events, state, loaded: { state, version } };
  }

  private async load(db: Queryable, userId: string): Promise<Loaded> {
    // A cached state is used as is: if another writer moved the stream since, the append's
    // version check fails, the entry is dropped, and the retry reads what is new.
    const hit = this.cache.get(userId);
    if (hit) return hit;
    const cached = { state: initialState(), version: 0 };
    const newer = await this.store.readStream<TokenAccountEvent>(accountStream(userId), db, cached.version);
    if (newer.length === 0) return cached;
    let state = cached.state;
    for (const e of newer) state = evolve(state, { type: e.type, data: e.data } as TokenAccountEvent);
    return { state, version: newer[newer.length - 1]!.streamPosition };
  }

  private remember(userId: string, loaded: Loaded): void {
    this.cache.delete(userId);
    this.cache.set(userId, loaded);
    if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
  }
}

function refusalToAppError(refusal: TokenAccountRefusal): AppError {
  const details = { balance: refusal.balance, ...(refusal.required !== undefined ? { required: refusal.required } : {}) };
  switch (refusal.code) {
    case 'INSUFFICIENT_TOKENS':
      return new AppError(
        'INSUFFICIENT_TOKENS',
        `Not enough tokens: this needs ${refusal.required ?? 100} and your balance is ${refusal.balance}. Buy a token pack or choose a plan to continue.`,
        details,
      );
    case 'ACCOUNT_CLOSED':
      return new AppError('CONFLICT', 'This token account is closed', details);
    case 'SPEND_NOT_FOUND':
      return new AppError('NOT_FOUND', refusal.message, details);
    case 'UNKNOWN_PLAN':
    case 'INVALID_ARGUMENT':
      return new AppError('INVALID_ARGUMENT', refusal.message, details);
  }
}
