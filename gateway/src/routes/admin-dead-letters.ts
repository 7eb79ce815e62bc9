import { z } from 'zod';
import { call } from '@flatlay/platform';
import { refusal } from '../api/responses.js';
import { toApi } from '../api/api-view.js';
import { route, type ApiRoute } from '../api/route.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata } from '../http/auth.js';

const DeadLetters = z.object({
  dead_letter_topic: z.string().meta({ description: 'The dead-letter topic, <topic>.dlq.<group>' }),
  topic: z.string().meta({ description: 'The topic the letters came from' }),
  group: z.string().meta({ description: 'The consumer group that could not handle them' }),
  count: z.number().int().meta({ description: 'Letters waiting (not yet replayed or discarded)' }),
  oldest_at: z.string().nullable().meta({ description: 'When the oldest waiting letter was set aside (ISO 8601)' }),
  last_error: z.string().nullable().meta({ description: 'Why the newest waiting letter was set aside' }),
});
const DeadLetterList = z.object({ dead_letters: z.array(DeadLetters) });

const Action = z.object({
  dead_letter_topic: z
    .string({ error: 'dead_letter_topic is required' })
    .min(1, { error: 'dead_letter_topic is required' })
    .max(512, { error: 'dead_letter_topic is at most 512 characters' })
    .regex(/^\S+\.dlq\.\S+$/, { error: 'dead_letter_topic must be a dead-letter topic, <topic>.dlq.<group>' })
    .meta({
      description:
        'A dead-letter topic, <topic>.dlq.<group>; one of a real group and topic that has none yet answers count 0',
    }),
  limit: z
    .number({ error: 'limit must be a whole number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(100_000, { error: 'limit must be at most 100000' })
    .optional()
    .meta({ description: 'At most this many, oldest first; absent: all that wait' }),
});

/**
 * /api/admin/dead-letters: messages a consumer group could never handle, set aside in its
 * dead-letter topic (ADR 0009); the operator replays them (after a fix) or discards them.
 */
export function adminDeadLetterRoutes(clients: ServiceClients): ApiRoute[] {
  const act = (kind: 'replay' | 'discard') =>
    route({
      method: 'post',
      path: `/admin/dead-letters/${kind}`,
      tags: ['admin'],
      access: 'admin',
      summary:
        kind === 'replay'
          ? 'Publishes the waiting dead letters of one dead-letter topic again on their source topic, oldest first'
          : 'Marks the waiting dead letters of one dead-letter topic as dealt with, without publishing them',
      request: { body: { type: 'application/json', limit: 4_096, schema: Action } },
      responses: {
        200: {
          description: kind === 'replay' ? 'Replayed' : 'Discarded',
          schema: z.object({ count: z.number().int() }),
          example: { count: 1 },
        },
        404: refusal('NOT_FOUND', 'No dead-letter topic billing.payment.v1.dlq.ledger'),
      },
      async handle(req, res, { body }) {
        const a = clients.analytics();
        const request = { deadLetterTopic: body.dead_letter_topic, limit: body.limit ?? 0 };
        const metadata = callerMetadata(req);
        const r =
          kind === 'replay'
            ? await call(a, a.replayDeadLetters, request, { metadata })
            : await call(a, a.discardDeadLetters, request, { metadata });
        res.json({ count: r.count });
      },
    });
  return [
    route({
      method: 'get',
      path: '/admin/dead-letters',
      tags: ['admin'],
      access: 'admin',
      summary: 'Dead letters per consumer group and topic: how many wait, the oldest, the last error',
      responses: {
        200: { description: 'The dead-letter topics', schema: DeadLetterList },
      },
      async handle(req, res) {
        const a = clients.analytics();
        const r = await call(a, a.listDeadLetters, {}, { metadata: callerMetadata(req) });
        res.json(toApi(DeadLetterList, { deadLetters: r.deadLetters.map((d) => ({ ...d, group: d.groupId })) }));
      },
    }),
    act('replay'),
    act('discard'),
  ];
}
