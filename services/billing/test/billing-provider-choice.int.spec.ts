// Free purchases by omission: billing under NODE_ENV=production without a Stripe secret key refuses
// to start, unless the operator chose the local provider (PAYMENTS_PROVIDER=local), which starts
// with a warning in the log. Billing starts here as it runs: migrations on a real PostgreSQL, Kafka.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, it } from 'vitest';
import { createLogger, startService } from '@flatlay/platform';
import { requireEnv, testKafkaBus } from '../../platform/test/support.js';
import { createBillingService, type BillingOverrides } from '../src/service.js';

describe('billing in production chooses its payment provider on purpose', { timeout: 180_000 }, () => {
  const run = randomUUID().replaceAll('-', '').slice(0, 10);
  const bus = testKafkaBus(`billing-choice-${run}`);
  afterAll(() => bus.close());

  const start = (env: BillingOverrides['env'], lines: string[] = []) =>
    startService(createBillingService({ consumerGroup: `billing-choice-${run}`, env }), {
      databaseUrl: requireEnv('DATABASE_URL'),
      database: `flatlay_billing_choice_${run}`,
      bus,
      grpcPort: 0,
      logger: createLogger('billing', 'info', { write: (line: string) => void lines.push(line) }),
    });

  it('refuses to start without a key, or with an empty one', async () => {
    await assert.rejects(start({ NODE_ENV: 'production', STRIPE_SECRET_KEY: '' }), /STRIPE_SECRET_KEY/);
    await assert.rejects(
      start({ NODE_ENV: 'production', STRIPE_SECRET_KEY: '', PAYMENTS_PROVIDER: '' }),
      /STRIPE_SECRET_KEY/,
    );
  });

  it('starts the local provider when chosen explicitly, and says so as a warning', async () => {
    const lines: string[] = [];
    const service = await start({ NODE_ENV: 'production', STRIPE_SECRET_KEY: '', PAYMENTS_PROVIDER: 'local' }, lines);
    try {
      const warnings = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);
      assert.ok(
        warnings.some((w) => w.provider === 'local' && /LOCAL payment provider in production/.test(w.msg)),
        `no warning among ${lines.join('')}`,
      );
    } finally {
      await service.stop();
    }
  });
});
