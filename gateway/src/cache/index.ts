// The gateway's cache of per-user facts (ADR 0510), as the composition roots start it.
import type { Bus, Logger } from '@flatlay/platform';
import type { ServiceClients } from '../clients.js';
import { cachedClients } from './cached-clients.js';
import { followInvalidations, type Invalidations } from './invalidations.js';
import { UserFactsCache } from './user-facts.js';

export { GATEWAY_CACHE_TOPIC } from './invalidations.js';
export { UserFactsCache } from './user-facts.js';

export interface GatewayCache {
  facts: UserFactsCache;
  /** The same clients, with the hot reads served from `facts` and writes invalidating them. */
  wrap(clients: ServiceClients): ServiceClients;
  /** Resolves once the cache is on (its invalidations deliver), or false when it stays off. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Starts following the invalidations on `bus` at once; facts are kept only from the moment the
 * subscription is proven to deliver. `ttlMs` 0 turns the cache off (every request asks the services).
 */
export function startGatewayCache(bus: Bus, logger: Logger, { ttlMs }: { ttlMs: number }): GatewayCache {
  const facts = new UserFactsCache({ ttlMs });
  const following: Promise<Invalidations | undefined> =
    ttlMs > 0
      ? followInvalidations(bus, facts, logger).catch((error: unknown) => {
          logger.warn({ err: error }, 'the gateway cache stays off: could not subscribe to its invalidations');
          return undefined;
        })
      : Promise.resolve(undefined);
  return {
    facts,
    wrap: (clients) =>
      cachedClients(clients, facts, async (users, scope) => {
        await (await following)?.broadcast(users, scope);
      }),
    ready: async () => {
      if (!(await following)) return false;
      for (let i = 0; i < 1_200 && !facts.isLive; i++) await new Promise((ok) => setTimeout(ok, 50));
      return facts.isLive;
    },
    close: async () => {
      await (await following)?.close();
    },
  };
}
