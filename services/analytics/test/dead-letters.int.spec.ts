// The operator's dead letters through the analytics API (ADR 0009): a message analytics cannot
// decode is set aside in its group's dead-letter topic, listed, then replayed or discarded.
// Real Postgres; the in-process bus of one stack (a poison message on the shared Kafka topics
// would be set aside by every other test's consumers too).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { analytics, topics } from '@flatlay/proto';
import {
  call,
  createClient,
  createLogger,
  deadLetterTopic,
  InProcessBus,
  serviceCredential,
  startService,
  type RunningService,
} from '@flatlay/platform';
import { requireEnv, waitFor } from '../../platform/test/support.js';
import { createAnalyticsService } from '../src/service.js';

describe('dead letters through the analytics API', { timeout: 120_000 }, () => {
  const bus = new InProcessBus();
  const group = `analytics-dlq-${randomUUID().slice(0, 8)}`;
  const dlq = deadLetterTopic(topics.identityUser, group);
  let svc: RunningService;
  let client: analytics.AnalyticsServiceClient;

  beforeAll(async () => {
    svc = await startService(createAnalyticsService({ consumerGroup: group }), {
      databaseUrl: requireEnv('DATABASE_URL'),
      database: `flatlay_analytics_dlq_test_${randomUUID().slice(0, 8)}`,
      bus,
      grpcPort: 0,
      logger: createLogger('analytics-test', 'silent'),
    });
    client = createClient(analytics.AnalyticsServiceClient, `127.0.0.1:${svc.port}`, serviceCredential('gateway'));
  });
  afterAll(async () => {
    client?.close();
    await svc?.stop();
    await bus.close();
  });

  const waiting = async () =>
    (await call(client, client.listDeadLetters, {})).deadLetters.find((d) => d.deadLetterTopic === dlq);
  const poison = () =>
    bus.publish([{ topic: topics.identityUser, key: 'u1', value: Buffer.from('not an envelope'), headers: {} }]);

  it('lists a message analytics cannot decode, with its error, and discards it', async () => {
    await poison();
    await waitFor(async () => (await waiting())?.count === 1, 'the poison message is a dead letter');
    const d = (await waiting())!;
    assert.equal(d.topic, topics.identityUser);
    assert.equal(d.groupId, group);
    assert.match(d.lastError, /envelope does not decode/);
    assert.ok(!Number.isNaN(Date.parse(d.oldestAt)));
    assert.deepEqual(await call(client, client.discardDeadLetters, { deadLetterTopic: dlq, limit: 0 }), { count: 1 });
    assert.equal((await waiting())?.count, 0);
  });

  it('replays a dead letter onto its topic (still undecodable, it comes back) and refuses bad names', async () => {
    await poison();
    await waitFor(async () => (await waiting())?.count === 1, 'the poison message is a dead letter');
    assert.deepEqual(await call(client, client.replayDeadLetters, { deadLetterTopic: dlq, limit: 1 }), { count: 1 });
    await waitFor(async () => (await waiting())?.count === 1, 'the replayed message is set aside again');
    await assert.rejects(call(client, client.replayDeadLetters, { deadLetterTopic: topics.identityUser, limit: 0 }), {
      code: 'INVALID_ARGUMENT',
    });
    await assert.rejects(
      call(client, client.discardDeadLetters, { deadLetterTopic: `${topics.identityUser}.dlq.nobody`, limit: 0 }),
      { code: 'NOT_FOUND' },
    );
  });
});
