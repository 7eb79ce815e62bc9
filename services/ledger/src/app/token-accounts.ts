import { randomUUID } from 'node:crypto';
import {
  AppError,
  EventStore,
  VersionConflict,
  withTransaction,
  type Pool,
  type Queryable,
  type StreamAppend,
} from '@flatlay/platform';
import {
  evolve,
  initialState,
  isTokenAccountRefusal,
  tokenAccount,
  type TokenAccountCommand,
  type TokenAccountEvent,
  type TokenAccountRefusal,
  type TokenAccountState,
} from '../domain/index.js';
import { projectAccountChanges, type AccountChange } from '../adapters/account-projection.js';
import { GroupCommitter } from './group-commit.js';
import { KeyedSerializer } from './account-lock.js';
import { toOutboxMessages } from './ledger-events.js';
import { countCommand } from './ledger-metrics.js';

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

interface AccountWrite {
  append: StreamAppend;
  projection: AccountChange;
}

interface Decision {
  outcome: CommandOutcome;
  next: Loaded;
  write?: AccountWrite;
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

  private readonly writer: GroupCommitter<AccountWrite>;

  /** `batchesInFlight`: how many group commits may run at once (each holds one connection). */
  constructor(
    private readonly pool: Pool,
    options: { batchesInFlight?: number } = {},
  ) {
    this.store = new EventStore(pool);
    this.writer = new GroupCommitter((writes) => this.commitBatch(writes), {
      maxBatch: 200,
      maxInFlight: options.batchesInFlight ?? 2,
    });
  }

  /** Executes in its own transaction (group-committed with others), or inside `tx` (a consumer's inbox transaction). */
  execute(userId: string, command: TokenAccountCommand, tx?: Queryable): Promise<CommandOutcome> {
    if (!userId) return Promise.reject(new AppError('INVALID_ARGUMENT', 'A user id is required'));
    return countCommand(command, () => this.run(userId, command, tx));
  }

  private run(userId: string, command: TokenAccountCommand, tx?: Queryable): Promise<CommandOutcome> {
    return this.serializer.run(userId, async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          if (tx) {
            // Inside a caller's transaction the cache cannot be updated (it may roll back).
            this.cache.delete(userId);
            const loaded = await this.load(tx, userId);
            const change = this.decide(userId, command, loaded);
            if (change.write) {
              await this.store.appendInTransaction(
                tx,
                change.write.append.streamName,
                change.write.append.events,
                change.write.append,
              );
              await projectAccountChanges(tx, [change.write.projection]);
            }
            return change.outcome;
          }
          const { loaded, change } = await this.decideOnLatest(userId, command);
          if (change.write && !(await this.writer.submit(change.write)))
            throw new VersionConflict(accountStream(userId), loaded.version);
          this.remember(userId, change.next);
          return change.outcome;
        } catch (error) {
          if (error instanceof VersionConflict && attempt < MAX_ATTEMPTS) {
            this.cache.delete(userId);
            continue;
          }
          if (error instanceof VersionConflict)
            throw new AppError('CONFLICT', 'This account is busy; please try again');
          if (isTokenAccountRefusal(error)) throw refusalToAppError(error);
          throw error;
        }
      }
    });
  }

  /**
   * Decides on the cached state when there is one. An accepted command needs no read: if the
   * stream moved, its append's version check fails and it decides again. A refusal has no such
   * check, so one decided on the cache is decided once more on what the database holds: another
   * replica or the payment consumer may have credited the account since this replica saw it.
   */
  private async decideOnLatest(
    userId: string,
    command: TokenAccountCommand,
  ): Promise<{ loaded: Loaded; change: Decision }> {
    const fromCache = this.cache.has(userId);
    const loaded = await this.load(this.pool, userId);
    try {
      return { loaded, change: this.decide(userId, command, loaded) };
    } catch (error) {
      if (!fromCache || !isTokenAccountRefusal(error)) throw error;
      const fresh = await this.catchUp(this.pool, userId, loaded);
      this.remember(userId, fresh);
      return { loaded: fresh, change: this.decide(userId, command, fresh) };
    }
  }

  /** Runs the decider and prepares what to write: events, outbox messages and read-model rows. */
  private decide(userId: string, command: TokenAccountCommand, loaded: Loaded): Decision {
    const events = tokenAccount.decide(command, loaded.state);
    if (events.length === 0)
      return { outcome: { balance: loaded.state.balance, events, state: loaded.state }, next: loaded };
    const balances: number[] = [];
    let state = loaded.state;
    for (const event of events) {
      state = evolve(state, event);
      balances.push(state.balance);
    }
    const version = loaded.version + events.length;
    const eventIds = events.map(() => randomUUID());
    return {
      outcome: { balance: state.balance, events, state },
      next: { state, version },
      write: {
        append: {
          streamName: accountStream(userId),
          expectedVersion: loaded.version,
          events,
          eventIds,
          outbox: toOutboxMessages(userId, loaded.version + 1, eventIds, events, balances),
        },
        projection: {
          account: { userId, balance: state.balance, version, closed: state.status === 'closed' },
          events: events.map((event, i) => ({
            eventId: eventIds[i]!,
            streamPosition: loaded.version + 1 + i,
            type: event.type,
            data: event.data,
          })),
          balanceBefore: loaded.state.balance,
        },
      },
    };
  }

  /** One transaction for a batch of accounts: appends (each with its own version check), then the read models of those that took effect. */
  private async commitBatch(writes: AccountWrite[]): Promise<boolean[]> {
    try {
      if (writes.length === 1) return [await this.commitOne(writes[0]!)];
      return await withTransaction(this.pool, async (tx) => {
        const moved = await this.store.appendManyInTransaction(
          tx,
          writes.map((w) => w.append),
        );
        await projectAccountChanges(
          tx,
          writes.filter((w) => moved.has(w.append.streamName)).map((w) => w.projection),
        );
        return writes.map((w) => moved.has(w.append.streamName));
      });
    } catch (error) {
      // Two batches that lock streams in different orders: Postgres aborts one; its commands decide again.
      if ((error as { code?: string }).code === '40P01') return writes.map(() => false);
      throw error;
    }
  }

  /** A lone write takes the one-statement append: fewer round trips when there is nobody to share with. */
  private async commitOne(write: AccountWrite): Promise<boolean> {
    try {
      await withTransaction(this.pool, async (tx) => {
        await this.store.appendInTransaction(tx, write.append.streamName, write.append.events, write.append);
        await projectAccountChanges(tx, [write.projection]);
      });
      return true;
    } catch (error) {
      if (error instanceof VersionConflict) return false;
      throw error;
    }
  }

  private async load(db: Queryable, userId: string): Promise<Loaded> {
    // A cached state is used as is: if another writer moved the stream since, the append's
    // version check fails, the entry is dropped, and the retry reads what is new (a refusal,
    // which appends nothing, is checked against the stream in decideOnLatest).
    const hit = this.cache.get(userId);
    if (hit) return hit;
    return this.catchUp(db, userId, { state: initialState(), version: 0 });
  }

  /** Folds the events recorded after `from`'s version onto its state (events never change, so a known prefix need not be read again). */
  private async catchUp(db: Queryable, userId: string, from: Loaded): Promise<Loaded> {
    const newer = await this.store.readStream<TokenAccountEvent>(accountStream(userId), db, from.version);
    if (newer.length === 0) return from;
    let state = from.state;
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
  const details = {
    balance: refusal.balance,
    ...(refusal.required !== undefined ? { required: refusal.required } : {}),
  };
  switch (refusal.code) {
    case 'INSUFFICIENT_TOKENS':
      return new AppError(
        'INSUFFICIENT_TOKENS',
        `Not enough tokens: this needs ${refusal.required ?? 100} and your balance is ${refusal.balance}. Buy a token pack or choose a plan to continue.`,
        details,
      );
    case 'ACCOUNT_CLOSED':
      // `reason` tells callers this refusal is final (a refund owed to a closed account can never
      // be paid), unlike a CONFLICT of a busy account, which is worth trying again.
      return new AppError('CONFLICT', 'This token account is closed', { ...details, reason: 'account_closed' });
    case 'SPEND_NOT_FOUND':
    case 'PAYMENT_NOT_FOUND':
    case 'PLAN_GRANT_NOT_FOUND':
      return new AppError('NOT_FOUND', refusal.message, details);
    case 'UNKNOWN_PLAN':
    case 'INVALID_ARGUMENT':
      return new AppError('INVALID_ARGUMENT', refusal.message, details);
  }
}
