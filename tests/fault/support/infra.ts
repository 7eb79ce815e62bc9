// The fault tier's own Postgres, Kafka and Toxiproxy (scripts/infra/fault.mjs): started for the
// suite, stopped at its end, and stopped or restarted as faults.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const script = fileURLToPath(new URL('../../../scripts/infra/fault.mjs', import.meta.url));

export interface FaultInfra {
  FAULT_DATABASE_URL: string;
  FAULT_POSTGRES_PORT: string;
  FAULT_KAFKA_BROKERS: string;
  FAULT_KAFKA_PROXIED_PORT: string;
  FAULT_KAFKA_ADVERTISED_PORT: string;
  FAULT_TOXIPROXY_URL: string;
}

async function infra(command: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [script, command], {
    env: { ...process.env, FAULT_INFRA_QUIET: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

export const faultInfraUp = async (): Promise<FaultInfra> => JSON.parse(await infra('up')) as FaultInfra;
export const faultInfraDown = () => infra('down');
export const stopKafkaBroker = () => infra('kafka-stop');
export const startKafkaBroker = () => infra('kafka-start');
export const restartPostgres = () => infra('postgres-restart');
