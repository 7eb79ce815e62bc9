// What each consumer group does with each topic's messages, and how far behind it is: the
// operator's first signs of a stuck partition, a poison message or a consumer that cannot keep up.
// Both bus adapters record here, so every service's consumers are covered.
import { gaugesOver, instrument, JOB_BUCKETS_S, withinMs } from '../metrics/instruments.js';

/** What became of one delivery: handled (committed), offered again later, or set aside as a dead letter. */
export type ConsumeOutcome = 'handled' | 'retried' | 'dead_lettered';

const consumed = () =>
  instrument('flatlay.messaging.consumer.messages', (meter) =>
    meter.createCounter('flatlay.messaging.consumer.messages', {
      description: 'Deliveries a consumer group finished with, by topic and outcome (handled, retried, dead_lettered)',
      unit: '{message}',
    }),
  );

const processDuration = () =>
  instrument('messaging.process.duration', (meter) =>
    meter.createHistogram('messaging.process.duration', {
      description: "Time a consumer group's handler took per delivery, by topic and outcome",
      unit: 's',
      advice: { explicitBucketBoundaries: JOB_BUCKETS_S },
    }),
  );

/** Records one delivery's outcome and how long its handler ran. */
export function recordConsumed(groupId: string, topic: string, outcome: ConsumeOutcome, startedMs: number): void {
  const attributes = {
    'messaging.consumer.group.name': groupId,
    'messaging.destination.name': topic,
    'flatlay.outcome': outcome,
  };
  consumed().add(1, attributes);
  processDuration().record((performance.now() - startedMs) / 1000, attributes);
}

/** One group's lag on one topic: messages not yet committed (each member of the group reports the group's). */
export interface LagSource {
  groupId: string;
  topic: string;
  lag(): number | Promise<number>;
}

// Read one after another (gaugesOver): kafkajs' admin client mixes up concurrent offset requests.
const trackSource = gaugesOver<LagSource, 'lag'>(
  {
    lag: {
      name: 'flatlay.messaging.consumer.lag',
      description:
        'Messages of a topic its consumer group has not committed yet (every member reports the whole group: take the max per group and topic)',
      unit: '{message}',
    },
  },
  async (source, record) => {
    const lag = await withinMs(2_000, async () => source.lag());
    if (lag !== undefined)
      record('lag', lag, {
        'messaging.consumer.group.name': source.groupId,
        'messaging.destination.name': source.topic,
      });
  },
);

/** Reports a subscription's lag per topic until the returned function is called (on close). */
export function trackLag(sources: LagSource[]): () => void {
  const untrack = sources.map(trackSource);
  return () => {
    for (const stop of untrack) stop();
  };
}
