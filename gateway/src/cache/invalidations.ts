// How every gateway instance learns that a user's facts changed (ADR 0510): identity's and the
// ledger's events, plus the gateways' own channel, on which the instance that handled a logout,
// a deletion, a password change or a ledger write tells the others at once (the services'
// events follow through their outboxes, which the relay publishes within its poll interval).
import { randomUUID } from 'node:crypto';
import { topics } from '@flatlay/proto';
import { InProcessBus, serviceTopics, type Bus, type Logger, type Subscription } from '@flatlay/platform';
import type { Scope, UserFactsCache } from './user-facts.js';

/** The gateways' own channel: JSON `{ origin, userId?, scope }`; no userId means everyone. */
export const GATEWAY_CACHE_TOPIC = 'gateway.cache.v1';

/** Tells every other gateway instance that these users' facts changed ('everyone' when unknown). */
export type Broadcast = (users: string[] | 'everyone', scope: Scope) => Promise<void>;

interface Notice {
  origin: string;
  /** `hello`: an instance's heartbeat through its own subscription (see followInvalidations). */
  kind: 'changed' | 'hello';
  /** A hello's sending time (epoch ms). */
  sentAt?: number;
  userId?: string;
  scope?: Scope;
}

export interface HeartbeatOptions {
  /** How often an instance says hello to itself. */
  everyMs?: number;
  /** Not heard for this long: the cache goes off (and forgets everything) until a hello comes back. */
  silenceMs?: number;
}

export interface Invalidations {
  broadcast: Broadcast;
  close(): Promise<void>;
}

/**
 * Subscribes this instance (a group of its own, from the end: it needs changes, not history) and
 * keeps the cache on only while its own heartbeat comes back through that subscription: a hello
 * every `everyMs`. The cache turns on when the first one is heard (the consumer is positioned and
 * delivering), and off, forgetting everything, when none was heard for `silenceMs` (a stalled or
 * rebalancing consumer, which may also have skipped changes: a Kafka group that rejoins starts
 * again at the end of a partition it had not committed on) or when one comes back that late.
 */
export async function followInvalidations(
  bus: Bus,
  cache: UserFactsCache,
  logger: Logger,
  { everyMs = 500, silenceMs = 2_000 }: HeartbeatOptions = {},
): Promise<Invalidations> {
  const origin = randomUUID();
  await bus.ensureTopics([
    { name: GATEWAY_CACHE_TOPIC, partitions: 1 },
    ...serviceTopics('identity').filter((t) => t.name === topics.identityUser),
    ...serviceTopics('ledger').filter((t) => t.name === topics.ledgerAccount),
  ]);
  let lastHeard = 0;
  let closed = false;
  const heard = (sentAt: number) => {
    if (closed) return;
    const now = Date.now();
    if (now - sentAt > silenceMs) {
      // Changes of that period may have been skipped: start again from nothing.
      if (cache.isLive) logger.warn({ lagMs: now - sentAt }, 'gateway cache off: its invalidations lag');
      cache.setLive(false);
      return;
    }
    lastHeard = now;
    if (!cache.isLive) {
      cache.setLive(true);
      logger.info({ group: `gateway-cache-${origin}` }, 'gateway cache on');
    }
  };
  const subscription: Subscription = await bus.subscribe({
    groupId: `gateway-cache-${origin}`,
    topics: [topics.identityUser, topics.ledgerAccount, GATEWAY_CACHE_TOPIC],
    from: 'end',
    handle: async (delivery) => {
      if (delivery.topic === topics.ledgerAccount) return cache.invalidate(delivery.key, 'balance');
      if (delivery.topic === topics.identityUser) return cache.invalidate(delivery.key, 'all');
      const notice = parseNotice(delivery.value);
      if (!notice) return;
      if (notice.kind === 'hello') {
        if (notice.origin === origin) heard(notice.sentAt ?? 0);
        return;
      }
      if (notice.origin === origin) return; // applied here before it was sent
      if (notice.userId) cache.invalidate(notice.userId, notice.scope ?? 'all');
      else cache.invalidateEveryone();
    },
  });

  const publish = (notices: Notice[]) =>
    bus.publish(
      notices.map((n) => ({
        topic: GATEWAY_CACHE_TOPIC,
        key: n.userId ?? '',
        value: Buffer.from(JSON.stringify(n)),
        headers: {},
      })),
    );

  // The in-process bus loses nothing and keeps every message in memory: there one hello heard is
  // enough, and the beat stops.
  const continuous = !(bus instanceof InProcessBus);
  const beat = setInterval(() => {
    if (!continuous && cache.isLive) return clearInterval(beat);
    if (cache.isLive && Date.now() - lastHeard > silenceMs) {
      logger.warn('gateway cache off: its invalidations are not delivered');
      cache.setLive(false);
    }
    publish([{ origin, kind: 'hello', sentAt: Date.now() }]).catch(() => undefined);
  }, everyMs);
  beat.unref();

  return {
    broadcast: async (users, scope) => {
      const notices: Notice[] =
        users === 'everyone'
          ? [{ origin, kind: 'changed', scope: 'all' }]
          : users.map((userId) => ({ origin, kind: 'changed', userId, scope }));
      try {
        await publish(notices);
      } catch (error) {
        // The services' own events still reach every instance, and each fact expires (TTL).
        logger.warn({ err: error }, 'could not tell the other gateways about a change');
      }
    },
    close: async () => {
      closed = true;
      clearInterval(beat);
      cache.setLive(false);
      await subscription.close();
    },
  };
}

function parseNotice(value: Buffer): Notice | undefined {
  try {
    const n = JSON.parse(value.toString()) as Notice;
    return typeof n.origin === 'string' ? n : undefined;
  } catch {
    return undefined;
  }
}
