// What the gateway remembers per user between requests (ADR 0510): the access tokens identity has
// verified, the profile and the balance. Only answers the services gave are kept; an
// invalidation drops them and the next request asks the service again, so the service stays the
// one judge of what is true. Nothing here refuses anything by itself.

/** A fact the gateway may keep for a user. */
export type Fact = 'sessions' | 'profile' | 'balance';
/** What a change makes stale: everything about the user, or only the balance (a ledger event). */
export type Scope = 'all' | 'balance';

interface Entry<T> {
  value: T;
  until: number;
  /**
   * From when a read should also refresh it in the background (the last quarter of the TTL), so
   * that under steady traffic it is renewed before it runs out and no request waits on a refill;
   * never for a fact that ends earlier than its TTL (a token's expiry, a plan's period end).
   */
  refreshAt: number;
}

/** A remembered fact, and whether a read should refresh it in the background now. */
export interface Known<T> {
  value: T;
  refreshDue: boolean;
}

/** The part of the TTL after which a read refreshes a fact in the background. */
const REFRESH_AFTER = 0.75;

interface UserFacts {
  sessions: Map<string, Entry<unknown>>;
  profile?: Entry<unknown>;
  balance?: Entry<unknown>;
}

/**
 * A fill is stamped with the invalidation sequence when its call starts; it is stored only when
 * no invalidation of that user (or of everyone) came after the stamp, so an answer computed
 * before a logout or a spend can never be remembered after it.
 */
export type Stamp = number;

export interface UserFactsOptions {
  /** How long any fact is kept at most, as a backstop against a missed event (ms; 0: keep nothing). */
  ttlMs: number;
  /** Users remembered at most; the least recently filled are forgotten first. */
  maxUsers?: number;
  /** Access tokens remembered per user at most. */
  maxSessionsPerUser?: number;
  now?: () => number;
}

export class UserFactsCache {
  private readonly users = new Map<string, UserFacts>();
  /** Which user each remembered token belongs to (a session is looked up by its token). */
  private readonly tokenOwner = new Map<string, string>();
  private sequence = 0;
  private everyoneInvalidatedAt = 0;
  /** The last invalidation of a user's facts, per scope, for fills still in flight. */
  private readonly invalidatedAt = new Map<string, { all: number; balance: number; at: number }>();
  private live = false;
  private readonly maxUsers: number;
  private readonly maxSessions: number;
  private readonly now: () => number;

  constructor(private readonly options: UserFactsOptions) {
    this.maxUsers = options.maxUsers ?? 50_000;
    this.maxSessions = options.maxSessionsPerUser ?? 20;
    this.now = options.now ?? Date.now;
  }

  /**
   * Facts are kept only while the invalidations reach this instance: set live once its
   * subscriptions are assigned; set not live (which forgets everything) when they fail.
   */
  setLive(live: boolean): void {
    if (!live) this.invalidateEveryone();
    this.live = live && this.options.ttlMs > 0;
  }

  get isLive(): boolean {
    return this.live;
  }

  stamp(): Stamp {
    return this.sequence;
  }

  session<T>(token: string): T | undefined {
    return this.knownSession<T>(token)?.value;
  }

  profile<T>(userId: string): T | undefined {
    return this.fresh<T>(userId, 'profile')?.value;
  }

  balance<T>(userId: string): T | undefined {
    return this.fresh<T>(userId, 'balance')?.value;
  }

  knownSession<T>(token: string): Known<T> | undefined {
    const userId = this.tokenOwner.get(token);
    if (userId === undefined) return undefined;
    const entry = this.users.get(userId)?.sessions.get(token);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.until <= now) {
      this.users.get(userId)?.sessions.delete(token);
      this.tokenOwner.delete(token);
      return undefined;
    }
    return { value: entry.value as T, refreshDue: entry.refreshAt <= now };
  }

  knownProfile<T>(userId: string): Known<T> | undefined {
    return this.fresh<T>(userId, 'profile');
  }

  knownBalance<T>(userId: string): Known<T> | undefined {
    return this.fresh<T>(userId, 'balance');
  }

  /** Forgets one verified token (identity refused it when asked again). */
  forgetSession(token: string): void {
    const userId = this.tokenOwner.get(token);
    if (userId === undefined) return;
    this.users.get(userId)?.sessions.delete(token);
    this.tokenOwner.delete(token);
  }

  /** Remembers a verified token until it expires (or the TTL), unless invalidated since `stamp`. */
  rememberSession(stamp: Stamp, token: string, userId: string, value: unknown, expiresAt?: number): void {
    if (!this.mayStore(stamp, userId, 'all')) return;
    const entry = this.entry(value, expiresAt);
    if (!entry) return;
    const facts = this.factsOf(userId);
    if (facts.sessions.size >= this.maxSessions && !facts.sessions.has(token)) {
      const oldest = facts.sessions.keys().next().value as string;
      facts.sessions.delete(oldest);
      this.tokenOwner.delete(oldest);
    }
    facts.sessions.set(token, entry);
    this.tokenOwner.set(token, userId);
  }

  /** Remembers a profile; `changesAt` is when it would read differently without any event (a plan's period end). */
  rememberProfile(stamp: Stamp, userId: string, value: unknown, changesAt?: number): void {
    if (!this.mayStore(stamp, userId, 'all')) return;
    const entry = this.entry(value, changesAt);
    if (entry) this.factsOf(userId).profile = entry;
  }

  rememberBalance(stamp: Stamp, userId: string, value: unknown): void {
    if (!this.mayStore(stamp, userId, 'balance')) return;
    this.factsOf(userId).balance = this.entry(value);
  }

  /** An entry kept for the TTL, or until `endsAt` when that comes first (then never refreshed ahead). */
  private entry(value: unknown, endsAt?: number): Entry<unknown> | undefined {
    const now = this.now();
    const ttlEnd = now + this.options.ttlMs;
    if (endsAt !== undefined && endsAt < ttlEnd) {
      return endsAt > now ? { value, until: endsAt, refreshAt: Number.POSITIVE_INFINITY } : undefined;
    }
    return { value, until: ttlEnd, refreshAt: now + this.options.ttlMs * REFRESH_AFTER };
  }

  /** Forgets a user's facts (all of them, or the balance); fills in flight for that user are not stored. */
  invalidate(userId: string, scope: Scope = 'all'): void {
    const seq = ++this.sequence;
    const facts = this.users.get(userId);
    if (facts) {
      if (scope === 'all') {
        for (const token of facts.sessions.keys()) this.tokenOwner.delete(token);
        this.users.delete(userId);
      } else {
        facts.balance = undefined;
      }
    }
    const mark = this.invalidatedAt.get(userId) ?? { all: 0, balance: 0, at: 0 };
    if (scope === 'all') mark.all = seq;
    mark.balance = seq;
    mark.at = this.now();
    this.invalidatedAt.set(userId, mark);
    this.forgetOldMarks();
  }

  /** Forgets everything (a change whose user is not known, or a lost subscription). */
  invalidateEveryone(): void {
    this.everyoneInvalidatedAt = ++this.sequence;
    this.users.clear();
    this.tokenOwner.clear();
    this.invalidatedAt.clear();
  }

  private fresh<T>(userId: string, fact: 'profile' | 'balance'): Known<T> | undefined {
    const entry = this.users.get(userId)?.[fact];
    if (!entry) return undefined;
    const now = this.now();
    if (entry.until <= now) {
      this.users.get(userId)![fact] = undefined;
      return undefined;
    }
    return { value: entry.value as T, refreshDue: entry.refreshAt <= now };
  }

  private mayStore(stamp: Stamp, userId: string, scope: Scope): boolean {
    if (!this.live || stamp < this.everyoneInvalidatedAt) return false;
    const mark = this.invalidatedAt.get(userId);
    return !mark || (scope === 'all' ? mark.all : mark.balance) <= stamp;
  }

  private factsOf(userId: string): UserFacts {
    let facts = this.users.get(userId);
    if (!facts) {
      if (this.users.size >= this.maxUsers) {
        const [oldest, old] = this.users.entries().next().value as [string, UserFacts];
        for (const token of old.sessions.keys()) this.tokenOwner.delete(token);
        this.users.delete(oldest);
      }
      facts = { sessions: new Map() };
      this.users.set(userId, facts);
    }
    return facts;
  }

  /** Marks only matter to fills still in flight, which give up within their deadline (seconds). */
  private forgetOldMarks(): void {
    if (this.invalidatedAt.size < 10_000) return;
    const before = this.now() - 60_000;
    for (const [userId, mark] of this.invalidatedAt) if (mark.at < before) this.invalidatedAt.delete(userId);
  }
}
