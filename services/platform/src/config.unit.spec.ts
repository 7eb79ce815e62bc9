import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, env, loadConfig } from './config.js';

const schema = z.object({ DATABASE_URL: env.url(), GRPC_PORT: env.port(50051), KAFKA_BROKERS: env.csv().optional() });

describe('loadConfig', () => {
  it('reads, coerces and defaults variables', () => {
    const config = loadConfig(schema, { DATABASE_URL: 'postgres://u:p@h:5432/db', KAFKA_BROKERS: 'a:1, b:2' });
    assert.deepEqual(config, {
      DATABASE_URL: 'postgres://u:p@h:5432/db',
      GRPC_PORT: 50051,
      KAFKA_BROKERS: ['a:1', 'b:2'],
    });
  });

  it('fails fast naming every missing or malformed variable, without echoing values', () => {
    const error = (() => {
      try {
        loadConfig(schema, { GRPC_PORT: 'seventy', KAFKA_BROKERS: 'secret-broker' + ',' });
      } catch (e) {
        return e;
      }
    })();
    assert.ok(error instanceof ConfigError);
    assert.equal(error.problems.length, 2);
    assert.match(error.problems[0]!, /^DATABASE_URL is required/);
    assert.match(error.problems[1]!, /^GRPC_PORT is invalid/);
    assert.doesNotMatch(error.message, /seventy|secret-broker/);
  });

  it('treats an empty variable as unset', () => {
    assert.throws(() => loadConfig(schema, { DATABASE_URL: '' }), /DATABASE_URL is required/);
  });

  it('takes a Kafka topic prefix of the characters a topic name allows, and leaves it unset when empty', () => {
    const prefixed = z.object({ KAFKA_TOPIC_PREFIX: env.kafkaTopicPrefix() });
    assert.deepEqual(loadConfig(prefixed, { KAFKA_TOPIC_PREFIX: 'test.ab12_cd-3.' }), {
      KAFKA_TOPIC_PREFIX: 'test.ab12_cd-3.',
    });
    assert.deepEqual(loadConfig(prefixed, { KAFKA_TOPIC_PREFIX: '' }), { KAFKA_TOPIC_PREFIX: undefined });
    assert.throws(() => loadConfig(prefixed, { KAFKA_TOPIC_PREFIX: 'test/one' }), /KAFKA_TOPIC_PREFIX is invalid/);
  });
});
