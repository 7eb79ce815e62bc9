// Identity as its own gRPC service on the suite's Postgres and Kafka, sending its e-mail to the
// test SMTP server (the test mailbox), for the tests of what people do from their inbox.
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identity } from '@flatlay/proto';
import { createClient, createLogger, ServiceCredential, startService, type RunningService } from '@flatlay/platform';
import { testSmtpUrl } from '../../../platform/test/mailbox.js';
import { requireEnv, testKafkaBus } from '../../../platform/test/support.js';
import { createIdentityService } from '../../src/index.js';

/** The site the e-mailed links point at. */
export const MAIL_BASE_URL = 'http://flatlay.test';

export interface IdentityMailStack {
  service: RunningService;
  /** Identity's client, calling as the gateway does. */
  client: identity.IdentityServiceClient;
  stop(): Promise<void>;
}

export async function startIdentityWithMail(name: string): Promise<IdentityMailStack> {
  const bus = testKafkaBus(`identity-${name}-test`);
  const keyFile = join(await mkdtemp(join(tmpdir(), 'identity-key-')), 'jwt-signing-key.pem');
  const service = await startService(
    createIdentityService({ JWT_KEY_FILE: keyFile, SMTP_URL: testSmtpUrl(), PUBLIC_BASE_URL: MAIL_BASE_URL }),
    {
      databaseUrl: requireEnv('DATABASE_URL'),
      database: `flatlay_identity_${name}_${randomUUID().replaceAll('-', '').slice(0, 12)}`,
      bus,
      grpcPort: 0,
      logger: createLogger(`identity-${name}-test`, 'silent'),
    },
  );
  const client = createClient(
    identity.IdentityServiceClient,
    `127.0.0.1:${service.port}`,
    new ServiceCredential('gateway'),
  );
  return {
    service,
    client,
    async stop() {
      client.close();
      await service.stop();
      await bus.close();
    },
  };
}
