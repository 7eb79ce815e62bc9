// Health of a recorded run: each service's pid is still ours and it answers its own protocol.

import { kafkaApiVersions } from './kafka.mjs';
import { mailboxOk } from './mailbox.mjs';
import { pgReady } from './postgres.mjs';
import { isOurs } from './process.mjs';
import { redisPing } from './redis.mjs';
import { s3ServerOk } from './s3-server.mjs';
import { stripeMockOk } from './stripe-mock.mjs';

/** @param {import('./state.mjs').State} state */
export async function health(state) {
  const h = {};
  /** @param {() => unknown} f */
  const guard = async (f) => {
    try {
      return Boolean(await f());
    } catch {
      return false;
    }
  };
  h.postgres = await guard(
    async () =>
      state.postgres?.pid &&
      isOurs(state.postgres.pid, 'postgres') &&
      (await pgReady(state.postgres.bin, state.postgres.port)),
  );
  h.kafka = await guard(
    async () =>
      state.kafka?.pid && isOurs(state.kafka.pid, 'kafka.Kafka') && (await kafkaApiVersions(state.kafka.port)),
  );
  h.redis = await guard(
    async () => state.redis?.pid && isOurs(state.redis.pid, 'redis-server') && (await redisPing(state.redis.port)),
  );
  h.stripeMock = await guard(
    async () =>
      state.stripeMock?.pid &&
      isOurs(state.stripeMock.pid, 'stripe-mock') &&
      (await stripeMockOk(state.stripeMock.port)),
  );
  h.s3 = await guard(
    async () => state.s3?.pid && isOurs(state.s3.pid, 'versitygw') && (await s3ServerOk(state.s3.port)),
  );
  h.mailbox = await guard(
    async () =>
      state.mailbox?.pid && isOurs(state.mailbox.pid, 'mailbox-server') && (await mailboxOk(state.mailbox.port)),
  );
  return h;
}
