// What must hold after every fault, checked from the outside (the /api a user and an operator
// see, each service's database, Kafka's offsets), not only that calls succeeded:
//   tokens      each account's balance is the sum of its history, the admin view agrees, and it is
//               what the user's events say: the sign-up grant, each paid pack once (less each
//               refunded one once), each operator adjustment once, 100 per unlocked result
//   checkouts   every paid checkout credited exactly once (a refunded one reversed exactly once)
//   generations every image ends completed or failed (a failed one's charge came back: the
//               token sum above counts only unlocked results)
//   outbox      no service's outbox has a row its relay has not published
//   lag         every consumer group of the product has read its topics to the end
//   dead letters none but the poison messages the suite sent
import pg from 'pg';
import { generationWorkQueue, KafkaBus, registry, type DeadLetterSummary } from '@flatlay/platform';
import { SERVICES, type Product } from './product.js';
import { PACK_TOKENS, type Shop, type User } from './traffic.js';

export const SIGN_UP_GRANT = 200;
export const UNLOCK_COST = 100;

export interface Violation {
  invariant: string;
  detail: string;
}

interface History {
  balance: number;
  transactions: Array<{ amount: number; description: string }>;
}
interface ImageRow {
  id: string;
  status: string;
  is_locked: boolean;
}

/** The consumer groups of the product and the topics each reads (the registry's, and the worker's queue). */
export function consumerGroups(): Array<{ group: string; topics: string[] }> {
  const groups = SERVICES.flatMap((s) => (registry[s].consumes ? [registry[s].consumes!] : []));
  return [...groups, { group: generationWorkQueue.group, topics: [generationWorkQueue.topic] }];
}

export class Invariants {
  private readonly bus: KafkaBus;
  /** Dead letters the suite caused on purpose, by dead-letter topic. */
  readonly expectedDeadLetters = new Map<string, number>();
  /** How many invariants the last check() looked at (users' books, outboxes, groups, dead-letter topics). */
  checked = 0;
  /** Images that ended failed (their charges refunded), as the last check() found them. */
  failedGenerations = 0;

  constructor(
    private readonly product: Product,
    private readonly shop: Shop,
  ) {
    this.bus = new KafkaBus({ brokers: product.infra.FAULT_KAFKA_BROKERS.split(','), clientId: 'fault-invariants' });
  }

  /** Every invariant once; the violations found (empty when all hold). */
  async check(): Promise<Violation[]> {
    const found: Violation[] = [];
    const add = (invariant: string, detail: string) => found.push({ invariant, detail });
    this.checked = 0;
    this.failedGenerations = 0;
    for (const user of this.shop.users) await this.checkUser(user, add);
    await this.checkOutboxes(add);
    await this.checkLag(add);
    await this.checkDeadLetters(add);
    return found;
  }

  private async checkUser(user: User, add: (invariant: string, detail: string) => void): Promise<void> {
    const history = await this.shop.api<History>('GET', '/tokens/?limit=100', user.token);
    const images = await this.shop.api<{ images: ImageRow[] }>('GET', '/images/?limit=50', user.token);
    if (history.status !== 200 || images.status !== 200) {
      add('answers', `${user.email}: /tokens ${history.status}, /images ${images.status}`);
      return;
    }
    const { balance, transactions } = history.body;
    const sum = transactions.reduce((total, t) => total + t.amount, 0);
    this.checked++;
    if (sum !== balance) add('history sums to balance', `${user.email}: balance ${balance}, history sums to ${sum}`);

    this.failedGenerations += images.body.images.filter((i) => i.status === 'failed').length;
    const unfinished = images.body.images.filter((i) => i.status !== 'completed' && i.status !== 'failed');
    this.checked++;
    if (unfinished.length)
      add('generations end', `${user.email}: ${unfinished.map((i) => `${i.id} ${i.status}`).join(', ')}`);

    const paid = this.shop.paid.filter((p) => p.userId === user.id);
    const refunded = paid.filter((p) => p.refunded).length;
    const credits = transactions.filter((t) => t.amount === PACK_TOKENS).length;
    const reversals = transactions.filter((t) => t.amount === -PACK_TOKENS).length;
    this.checked += 2;
    if (credits !== paid.length)
      add('checkout credited once', `${user.email}: ${paid.length} paid, ${credits} credits`);
    if (reversals !== refunded)
      add('refund reversed once', `${user.email}: ${refunded} refunded, ${reversals} reversals`);

    const adjusted = this.shop.adjusted.get(user.id) ?? { tokens: 0, unsure: false };
    const unlocked = images.body.images.filter((i) => i.status === 'completed' && !i.is_locked).length;
    const expected = SIGN_UP_GRANT + PACK_TOKENS * (paid.length - refunded) + adjusted.tokens - UNLOCK_COST * unlocked;
    this.checked++;
    if (!adjusted.unsure && balance !== expected)
      add(
        'token movements once',
        `${user.email}: balance ${balance}, events say ${expected} (${paid.length} packs, ${refunded} refunded, +${adjusted.tokens} adjusted, ${unlocked} unlocked)`,
      );

    const admin = await this.shop.api<{ users: Array<{ id: string; token_balance: number }> }>(
      'GET',
      `/admin/users?q=${encodeURIComponent(`email:${user.email}`)}`,
      await this.shop.admin(),
    );
    const seen = admin.body.users?.find((u) => u.id === user.id);
    this.checked++;
    if (seen?.token_balance !== balance)
      add('admin view agrees', `${user.email}: ledger ${balance}, admin view ${seen?.token_balance ?? 'no row'}`);
  }

  private async checkOutboxes(add: (invariant: string, detail: string) => void): Promise<void> {
    for (const service of SERVICES) {
      const client = new pg.Client({ connectionString: this.product.databaseOf(service) });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n FROM outbox WHERE (transaction_id, position) > (
             COALESCE((SELECT transaction_id FROM checkpoints WHERE reader = $1), '0'::xid8),
             COALESCE((SELECT position FROM checkpoints WHERE reader = $1), 0::bigint))`,
          [`outbox-relay:${service}`],
        );
        this.checked++;
        if (rows[0].n > 0) add('outbox published', `${service}: ${rows[0].n} rows not published`);
      } finally {
        await client.end();
      }
    }
  }

  private async checkLag(add: (invariant: string, detail: string) => void): Promise<void> {
    for (const { group, topics } of consumerGroups())
      for (const topic of topics) {
        const lag = await this.bus.consumerLag(group, topic);
        this.checked++;
        if (lag > 0) add('lag back to 0', `${group} on ${topic}: ${lag}`);
      }
  }

  async deadLetters(): Promise<DeadLetterSummary[]> {
    return this.bus.listDeadLetters();
  }

  private async checkDeadLetters(add: (invariant: string, detail: string) => void): Promise<void> {
    const letters = await this.deadLetters();
    const keys = new Set([...this.expectedDeadLetters.keys(), ...letters.map((l) => l.deadLetterTopic)]);
    for (const topic of keys) {
      const count = letters.find((l) => l.deadLetterTopic === topic)?.count ?? 0;
      const expected = this.expectedDeadLetters.get(topic) ?? 0;
      this.checked++;
      if (count !== expected) add('only poison dead-lettered', `${topic}: ${count} waiting, ${expected} poison sent`);
    }
  }

  /** Publishes bytes no consumer can read on `topic` (keyed like real events). */
  async poison(topic: string): Promise<void> {
    await this.bus.publish([
      { topic, key: 'fault-suite-poison', value: Buffer.from([0xff, 0xff, 0xff, 0xff]), headers: {} },
    ]);
  }

  close(): Promise<void> {
    return this.bus.close();
  }
}
