import type { Bus } from '../bus/bus.js';
import { InProcessBus } from '../bus/in-process-bus.js';
import { KafkaBus } from '../bus/kafka-bus.js';

/** Kafka when brokers are configured, otherwise the in-process bus of the embedded default. */
export function createBus(kafkaBrokers: string[] | undefined, clientId: string): Bus {
  return kafkaBrokers?.length ? new KafkaBus({ brokers: kafkaBrokers, clientId }) : new InProcessBus();
}
