import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkHealth,
  freePort,
  generateServiceKeys,
  privateKeyPem,
  ServiceCredential,
  writePublicKeys,
  type CallerName,
} from '../src/index.js';
import { freshTopicPrefix, testKafkaBus, waitFor } from './support.js';

export interface ChildRun {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

/** Starts a Node process the way a deployment would, capturing its output for failure messages. */
export function startNode(args: string[], env: Record<string, string | undefined>): ChildRun {
  // Metrics on a free port unless the test says otherwise: several processes run side by side here.
  return startCommand(process.execPath, args, { METRICS_PORT: '0', ...process.env, ...env });
}

/** Starts any program (a Prometheus, say) with exactly `env`, capturing its output for failure messages. */
export function startCommand(command: string, args: string[], env: Record<string, string | undefined>): ChildRun {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | string>((ok) => child.on('exit', (code, signal) => ok(code ?? signal ?? -1)));
  return { child, output: () => output, exited };
}

/** The deployment's key pairs for the processes that tests start (each its own, as deployed). */
export const testServiceKeys = generateServiceKeys();
let publicKeysDir: string | undefined;

/** The settings of `caller`'s identity in a process a test starts: its private key and every caller's public key. */
export function serviceKeyEnv(caller: CallerName): Record<string, string> {
  if (!publicKeysDir) {
    publicKeysDir = mkdtempSync(join(tmpdir(), 'flatlay-service-keys-'));
    writePublicKeys(publicKeysDir, testServiceKeys);
  }
  return {
    SERVICE_PRIVATE_KEY: privateKeyPem(testServiceKeys[caller].privateKey),
    SERVICE_PUBLIC_KEYS_DIR: publicKeysDir,
  };
}

export const testUrlSigningKey = randomBytes(32).toString('base64');

/** A caller's credential with the test deployment's key. */
export const testCredential = (caller: CallerName) => new ServiceCredential(caller, testServiceKeys[caller].privateKey);

/**
 * Starts a service's built entry point; `credential` is the gateway's, which may call every service.
 * Its topics are in a namespace of its own on the test broker (KAFKA_TOPIC_PREFIX, ADR 0010), or
 * in `topicPrefix` (a test's stack it joins); a namespace of its own is deleted once it exits.
 */
export async function startServiceProcess(
  service: string,
  databaseUrl: string,
  options: { topicPrefix?: string } = {},
): Promise<ChildRun & { address: string; credential: ServiceCredential; metricsUrl: string }> {
  const port = await freePort();
  const metricsPort = await freePort();
  const topicPrefix = options.topicPrefix ?? freshTopicPrefix();
  // The built entry point, as deployed (npm test builds first).
  const run = startNode([`services/${service}/dist/main.js`], {
    DATABASE_URL: databaseUrl,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: String(port),
    METRICS_PORT: String(metricsPort),
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    ...serviceKeyEnv(service as CallerName),
    // The image service signs file URLs with a key it must be given as its own process.
    IMAGE_URL_SIGNING_KEY: testUrlSigningKey,
  });
  const address = `127.0.0.1:${port}`;
  await waitFor(
    async () => (await checkHealth(address)) === 'SERVING' || run.child.exitCode !== null,
    `${service} to serve`,
    60_000,
  );
  if (run.child.exitCode !== null) throw new Error(`${service} exited early:\n${run.output()}`);
  // Its own namespace goes when it has gone (closing a test bus on it deletes it).
  const exited = options.topicPrefix
    ? run.exited
    : run.exited.then(async (code) => {
        await testKafkaBus(`${service}-cleanup`, { prefix: topicPrefix }).close();
        return code;
      });
  return {
    ...run,
    exited,
    address,
    credential: testCredential('gateway'),
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
  };
}
