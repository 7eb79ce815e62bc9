// How every gateway instance learns that a user's facts changed (ADR 0510): identity's and the
// ledger's events, plus the gateways' own channel, on which the instance that handled a logout,
// a deletion, a password change or a ledger write tells the others at once (the services'
// events follow through their outboxes, which the relay publishes within its poll interval).
import { randomUUID } from 'node:crypto';
import { topics } from '@flatlay/proto';
import { serviceTopics, type Bus, type Logger, type Subscription } from '@flatlay/platform';
import type { Scope, UserFactsCache } from './user-facts.js';

/** The gateways' own channel: JSON `{ origin, userId?, scope }`; no userId means everyone. */
export const GATEWAY_CACHE_TOPIC = 'gateway.cache.v1';

/** Tells every other gateway instance that these users' facts changed ('everyone' when unknown). */
export type Broadcast = (users: string[] | 'everyone', scope: Scope) => Promise<void>;

interface Notice {
  origin: string;
  /** `hello`: an instance checking that its own subscription delivers (see `follow`). */
  kind: 'changed' | 'hello';
  userId?: string;
  scope?: Scope;
}

export interface Invalidations {
  broadcast: Broadcast;
  close(): Promise<void>;
}

/**
 * Subscribes this instance (a group of its own, from the end: it needs changes, not history) and
 * turns the cache on once a notice it published itself came back, which proves the
 * subscription is positioned and delivering. Until then, and if that never happens, nothing is
 * cached and every request asks the services, as without a bus.
 */
export async function followInvalidations(
  bus: Bus,
  cache: UserFactsCache,
  logger: Logger,
  { readyTimeoutMs = 60_000 } = {},
): Promise<Invalidations> {
  const origin = randomUUID();
  await bus.ensureTopics([
    { name: GATEWAY_CACHE_TOPIC, partitions: 1 },
    ...serviceTopics('identity').filter((t) => t.name === topics.identityUser),
    ...serviceTopics('ledger').filter((t) => t.name === topics.ledgerAccount),
  ]);
  let heard: () => void = () => undefined;
  const helloHeard = new Promise<void>((ok) => {
    heard = ok;
  });
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
        if (notice.origin === origin) heard();
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

  // Said again until heard: a Kafka group positions itself "at the end" only once it has joined.
  let closed = false;
  void (async () => {
    const until = Date.now() + readyTimeoutMs;
    let heardIt = false;
    void helloHeard.then(() => {
      heardIt = true;
    });
    while (!heardIt && !closed && Date.now() < until) {
      await publish([{ origin, kind: 'hello' }]).catch(() => undefined);
      await Promise.race([helloHeard, new Promise((ok) => setTimeout(ok, 500))]);
    }
    if (heardIt && !closed) {
      cache.setLive(true);
      logger.info({ group: `gateway-cache-${origin}` }, 'gateway cache on');
    }
    else if (!closed) logger.warn('the gateway cache stays off: its invalidation subscription did not deliver');
  })();

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
