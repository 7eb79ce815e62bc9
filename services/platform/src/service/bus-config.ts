import type { Bus } from '../bus/bus.js';
import { InProcessBus } from '../bus/in-process-bus.js';
import { KafkaBus, type KafkaSasl } from '../bus/kafka-bus.js';

/**
 * Kafka when brokers are configured, otherwise the in-process bus of the embedded default. With
 * `sasl`, the client authenticates as its own Kafka user (in Kubernetes, the Strimzi KafkaUser of
 * that service, whose ACLs name only its own topics and consumer group).
 */
export function createBus(
  kafkaBrokers: string[] | undefined,
  clientId: string,
  sasl?: KafkaSasl,
  /** KAFKA_TOPIC_PREFIX: this process's namespace on a shared broker (a test's); unset in production. */
  topicPrefix?: string,
): Bus {
  return kafkaBrokers?.length
    ? new KafkaBus({ brokers: kafkaBrokers, clientId, sasl, ...(topicPrefix ? { topicPrefix } : {}) })
    : new InProcessBus();
}
