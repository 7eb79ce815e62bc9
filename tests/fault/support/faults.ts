// The faults of the suite, each injected while traffic runs (traffic.ts): what it does, and
// whether it runs in `npm test` (the tier's ~6 minute budget) or only in `npm run faults`.
import { setTimeout as sleep } from 'node:timers/promises';
import { startKafkaBroker, stopKafkaBroker, restartPostgres } from './infra.js';
import { consumerGroups, type Invariants } from './invariants.js';
import { LINKS, SERVICES, type ProcessName, type Product } from './product.js';
import type { Sent, Shop } from './traffic.js';

export interface FaultContext {
  product: Product;
  shop: Shop;
  invariants: Invariants;
  sent: Sent;
}

export interface Fault {
  name: string;
  /** In `npm test` (otherwise only in `npm run faults`). */
  inTier: boolean;
  /** Injects the fault and ends it (restart, link restored); traffic runs until this resolves. */
  inject(ctx: FaultContext): Promise<void>;
}

/** Lets traffic get under way before a fault, and run through it for a while. */
const underway = () => sleep(1_500);

const kill = (name: ProcessName, inTier: boolean): Fault => ({
  name: `kill -9 ${name}, restart`,
  inTier,
  async inject({ product }) {
    await underway();
    await product.killAndRestart(name);
  },
});

/** A toxic on a named link for a few seconds of traffic, then removed. */
const toxic = (
  link: string,
  label: string,
  type: 'latency' | 'reset_peer' | 'slow_close',
  attributes: Record<string, number>,
  inTier: boolean,
): Fault => ({
  name: `${link}: ${label}`,
  inTier,
  async inject({ product }) {
    await underway();
    await product.toxiproxy.addToxic(link, type, { type, attributes });
    await sleep(5_000);
    await product.toxiproxy.removeToxic(link, type);
  },
});

const cut = (link: string, inTier: boolean): Fault => ({
  name: `${link}: connection cut 5 s`,
  inTier,
  async inject({ product }) {
    await underway();
    await product.toxiproxy.setEnabled(link, false);
    await sleep(5_000);
    await product.toxiproxy.setEnabled(link, true);
  },
});

export const FAULTS: Fault[] = [
  kill('ledger', true),
  kill('image-worker', true),
  kill('billing', true),
  {
    name: 'webhook 5 times, out of order, after a refund',
    inTier: true,
    async inject({ shop, sent }) {
      // Two buyers' payments: each completed event delivered 5 times, interleaved and reversed,
      // then the first refunded and its completed event delivered once more after the refund.
      const [a, b] = [await shop.signUp(sent), await shop.signUp(sent)];
      if (!a || !b) throw new Error('sign-up failed with no fault injected');
      // Right after the previous fault's restart a gateway may need its reconnect back-off (at most
      // 1 s, platform's createClient) to reach the service again: a buyer tries again, a few times.
      const buy = async (user: typeof a) => {
        for (let attempt = 0; attempt < 5; attempt++) {
          const paid = await shop.buyPack(user, sent);
          if (paid) return paid;
          await sleep(1_000);
        }
        return undefined;
      };
      const first = await buy(a);
      const second = await buy(b);
      if (!first || !second) throw new Error('checkout failed with no fault injected');
      const events = [shop.completed(first), shop.completed(second)];
      const order = [events[1], events[0], events[0], events[1], events[1], events[0], events[1], events[0]];
      for (const e of order) await shop.deliver(e!, sent);
      const refund = shop.refund(first);
      await shop.deliver(refund, sent);
      await shop.deliver(events[0]!, sent);
      await shop.deliver(refund, sent);
    },
  },
  {
    name: 'poison message on each consumed topic',
    inTier: true,
    async inject({ invariants }) {
      await underway();
      const topics = [...new Set(consumerGroups().flatMap((g) => g.topics))];
      for (const topic of topics) {
        await invariants.poison(topic);
        for (const { group } of consumerGroups().filter((g) => g.topics.includes(topic))) {
          const dlq = `${topic}.dlq.${group}`;
          invariants.expectedDeadLetters.set(dlq, (invariants.expectedDeadLetters.get(dlq) ?? 0) + 1);
        }
      }
    },
  },
  {
    name: 'Kafka broker stopped 5 s, restarted',
    inTier: true,
    async inject() {
      await underway();
      await stopKafkaBroker();
      await sleep(5_000);
      await startKafkaBroker();
    },
  },
  {
    name: 'Postgres restarted',
    inTier: true,
    async inject() {
      await underway();
      await restartPostgres();
    },
  },
  cut(LINKS.gatewayToLedger, true),
  toxic(LINKS.workerToKafka, 'latency 1 s', 'latency', { latency: 1_000, jitter: 200 }, true),
  toxic(LINKS.billingToPostgres, 'slow close 2 s', 'slow_close', { delay: 2_000 }, true),
  // The longer set (`npm run faults`).
  ...SERVICES.filter((s) => !['ledger', 'billing'].includes(s)).map((s) => kill(s, false)),
  kill('gateway', false),
  cut(LINKS.gatewayToIdentity, false),
  toxic(LINKS.gatewayToIdentity, 'latency 1 s', 'latency', { latency: 1_000, jitter: 200 }, false),
  toxic(LINKS.gatewayToLedger, 'reset peer', 'reset_peer', { timeout: 0 }, false),
  cut(LINKS.billingToPostgres, false),
  cut(LINKS.workerToKafka, false),
  toxic(LINKS.workerToKafka, 'reset peer', 'reset_peer', { timeout: 0 }, false),
];
