import type { Bus } from '../bus/bus.js';
import { InProcessBus } from '../bus/in-process-bus.js';
import { KafkaBus, type KafkaSasl } from '../bus/kafka-bus.js';

/**
 * Kafka when brokers are configured, otherwise the in-process bus of the embedded default. With
 * `sasl`, the client authenticates as its own Kafka user (in Kubernetes, the Strimzi KafkaUser of
 * that service, whose ACLs name only its own topics and consumer group).
 */
export function createBus(kafkaBrokers: string[] | undefined, clientId: string, sasl?: KafkaSasl): Bus {
  return kafkaBrokers?.length ? new KafkaBus({ brokers: kafkaBrokers, clientId, sasl }) : new InProcessBus();
}
