// `npm run dead-letters -- list | replay <dead-letter topic> [limit] | discard <dead-letter topic> [limit]`
// (in a pod: `node services/platform/dist/dead-letters-cli.js ...`): an operator's view of the
// consumer groups' dead letters on Kafka, and their replay or discard (ADR 0009).
import { z } from 'zod';
import { env, loadConfig } from './config.js';
import { KafkaBus } from './bus/kafka-bus.js';

const config = loadConfig(
  z.object({
    KAFKA_BROKERS: env.csv(),
    KAFKA_SASL_USERNAME: z.string().min(1).optional(),
    KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
    KAFKA_TOPIC_PREFIX: env.kafkaTopicPrefix(),
  }),
);
const sasl =
  config.KAFKA_SASL_USERNAME && config.KAFKA_SASL_PASSWORD
    ? { username: config.KAFKA_SASL_USERNAME, password: config.KAFKA_SASL_PASSWORD }
    : undefined;
const bus = new KafkaBus({
  brokers: config.KAFKA_BROKERS,
  clientId: 'dead-letters-cli',
  sasl,
  ...(config.KAFKA_TOPIC_PREFIX ? { topicPrefix: config.KAFKA_TOPIC_PREFIX } : {}),
});
const [command, topic, limitArg] = process.argv.slice(2);
const limit = limitArg === undefined ? undefined : Number(limitArg);
try {
  if (command === 'list') {
    for (const s of await bus.listDeadLetters()) console.log(JSON.stringify(s));
  } else if ((command === 'replay' || command === 'discard') && topic && (limit === undefined || limit >= 0)) {
    const n =
      command === 'replay' ? await bus.replayDeadLetters(topic, limit) : await bus.discardDeadLetters(topic, limit);
    console.log(`${command === 'replay' ? 'replayed' : 'discarded'} ${n} dead letter(s) of ${topic}`);
  } else {
    console.error(
      'usage: dead-letters list | replay <topic>.dlq.<group> [limit] | discard <topic>.dlq.<group> [limit]',
    );
    process.exitCode = 2;
  }
} finally {
  await bus.close();
}
