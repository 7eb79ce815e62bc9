import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { events } from '@flatlay/proto';
import { decodeEnvelope, decodePayload, outboxMessage } from '../events/envelope.js';
import {
  deadLetterHeaders,
  deadLetterOf,
  isPoison,
  parseDeadLetterTopic,
  PoisonMessage,
  replayOf,
  retryDelay,
} from './dead-letters.js';

describe('dead letters', () => {
  it('takes bytes that are no envelope, or a payload that does not decode, for poison', () => {
    for (const bytes of [Buffer.from('not an envelope at all'), Buffer.from([0xff, 0xff, 0xff]), Buffer.alloc(0)])
      assert.throws(
        () => decodeEnvelope(bytes),
        (e: unknown) => isPoison(e),
      );
    assert.throws(
      () => decodePayload(events.UserDeleted, Buffer.from([0x0a, 0x7f])), // a string field longer than the bytes
      (e: unknown) => e instanceof PoisonMessage,
    );
    const good = outboxMessage(
      't',
      'UserDeleted',
      events.UserDeleted,
      { userId: 'u1' },
      {
        aggregateId: 'u1',
        occurredAt: new Date(),
      },
    );
    const envelope = decodeEnvelope(good.envelope);
    assert.equal(decodePayload(events.UserDeleted, envelope.payload).userId, 'u1');
    assert.ok(!isPoison(new Error('connect ECONNREFUSED')), 'other errors are passing trouble');
  });

  it('carries the original message with why, where from and when; a replay gives back the original', () => {
    const delivery = {
      topic: 'billing.payment.v1',
      key: 'u1',
      value: Buffer.from('v'),
      headers: { traceparent: 'tp' },
      partition: 3,
      offset: 42,
    };
    const at = new Date('2026-11-26T10:00:00Z');
    const letter = deadLetterOf(delivery, 'ledger', new PoisonMessage('bad'), at);
    assert.equal(letter.topic, 'billing.payment.v1.dlq.ledger');
    assert.deepEqual(parseDeadLetterTopic(letter.topic), { topic: 'billing.payment.v1', groupId: 'ledger' });
    assert.deepEqual(letter.headers, {
      traceparent: 'tp',
      [deadLetterHeaders.error]: 'bad',
      [deadLetterHeaders.topic]: 'billing.payment.v1',
      [deadLetterHeaders.partition]: '3',
      [deadLetterHeaders.offset]: '42',
      [deadLetterHeaders.group]: 'ledger',
      [deadLetterHeaders.at]: '2026-11-26T10:00:00.000Z',
    });
    assert.deepEqual(replayOf(letter), {
      topic: 'billing.payment.v1',
      key: 'u1',
      value: Buffer.from('v'),
      headers: { traceparent: 'tp' },
    });
  });

  it('backs off doubling from the first delay up to the ceiling', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 50].map((n) => retryDelay(n, 500, 30_000)),
      [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000],
    );
  });
});
