// The gateway with real identity and ledger services on real Postgres, Kafka and Redis, plus a
// local stand-in for Google's certificate endpoint and a Supabase secret: everything the auth
// surface needs, and nothing that reaches the network.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { SignJWT } from 'jose';
import { identity, ledger } from '@flatlay/proto';
import {
  createClient,
  createLogger,
  freePort,
  ServiceCredential,
  startService,
  type RunningService,
  type ServiceContext,
  type ServiceDefinition,
} from '@flatlay/platform';
import { createIdentityService } from '@flatlay/identity';
import { createImageService } from '@flatlay/image';
import { FolderBlobStore, urlSigningKey } from '@flatlay/files';
import { ledgerService } from '@flatlay/ledger';
import { TokenAccounts } from '../../../services/ledger/src/app/token-accounts.js';
import {
  consumedTopics as ledgerTopics,
  ledgerEventHandler,
} from '../../../services/ledger/src/consumers/ledger-consumers.js';
import { ledgerGrpcService } from '../../../services/ledger/src/grpc/ledger-grpc.js';
import type { EnhanceEngine } from '../../../services/image/src/app/generation-worker.js';
import { analyticsService, createAnalyticsService, type AnalyticsOptions } from '@flatlay/analytics';
import { createBillingService } from '@flatlay/billing';
import { requireEnv, testKafkaBus, type TestKafkaBus } from '../../../services/platform/test/support.js';
import { createGatewayApp, listen, serviceClients, startDataExports, type DataExportWorker } from '../../src/index.js';
import type { errorBody } from '../../src/http/errors.js';
import type { AuthRateLimitOptions } from '../../src/http/rate-limit.js';
import type { userBody } from '../../src/routes/auth.js';

/** Guest limits no test run reaches (tests of the limits set their own). */
export const MANY_GUEST_TRIES = { perIpPerHour: 100_000, perEmailPerHour: 100_000, unfinishedPerGuest: 100_000 };

export const GOOGLE_CLIENT_ID = 'flatlay-test.apps.googleusercontent.com';
export const SUPABASE_SECRET = 'supabase-test-secret-with-32-characters!';

/** The JSON body of an /api error answer. */
export type ErrorBody = ReturnType<typeof errorBody>;

/** A user as /api answers it: on /auth/me and inside a session. */
export type UserBody = ReturnType<typeof userBody>;

/** The access token a sign-in answers (all of what /admin/login answers). */
export interface TokenBody {
  access_token: string;
  token_type: 'bearer';
}

/** A signed-in session as /api answers it. */
export interface SessionBody extends TokenBody {
  user: UserBody;
}

/** The caller's balance and history, as /api/tokens/ answers them. */
export interface TransactionsBody {
  balance: number;
  transactions: Array<{ id: string; description: string; amount: number; createdAt: string | null }>;
}

/** An answer whose JSON body (its text when it is not JSON) the caller reads as B: by default an error. */
export interface Reply<B = ErrorBody> {
  status: number;
  body: B;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  /** A multipart body (fetch sets its Content-Type with the boundary). */
  multipart?: FormData;
  headers?: Record<string, string>;
}

export interface StackOptions {
  /**
   * Also run the image service with one generation worker on this engine (a fake one keeps tests
   * fast), its own database and consumer groups, and a blob folder the gateway shares.
   */
  image?: { engine: EnhanceEngine };
  /**
   * Also run analytics (only where a test needs it: its consumers read every topic); with options,
   * in a database of its own (its settings must not meet another run's).
   */
  analytics?: boolean | AnalyticsOptions;
  /**
   * Also run billing, in a database and consumer group of its own, with these settings (none:
   * the local payment provider, with PUBLIC_BASE_URL the gateway's own address).
   */
  billing?: { env?: Record<string, string> };
  /** Also run the gateway's data-export worker (ADR 0403): needs `image` and `billing`, whose data it gathers. */
  dataExports?: boolean;
}

/** The image service's parts of a stack started with `image`. */
export interface ImageStack {
  blobs: FolderBlobStore;
  blobRoot: string;
  /** The key file URLs are signed with (this process's service secret, as the gateway derives it). */
  urlKey: Buffer;
  service: RunningService;
}

export interface Stack {
  base: string;
  admin: { email: string; password: string };
  /** The PEM that signs access tokens (tests forge expired or foreign tokens with it). */
  jwtPrivateKeyPem: string;
  bus: TestKafkaBus;
  identityClient: identity.IdentityServiceClient;
  ledgerClient: ledger.LedgerServiceClient;
  services: RunningService[];
  redis: Redis;
  /** Present when started with `image`. */
  image?: ImageStack;
  /** Present when started with `dataExports`. */
  dataExports?: DataExportWorker;
  /** Calls /api on the gateway; B names the shape of the body the route answers. */
  request<B = ErrorBody>(method: string, path: string, options?: RequestOptions): Promise<Reply<B>>;
  googleIdToken(
    claims: Record<string, unknown>,
    options?: { audience?: string; signWith?: 'google' | 'stranger' },
  ): Promise<string>;
  supabaseToken(claims: Record<string, unknown>, secret?: string): Promise<string>;
  /** Registers a fresh user and answers its e-mail, password, id and token. */
  newUser(prefix?: string): Promise<{ email: string; password: string; id: string; token: string }>;
  stop(): Promise<void>;
}

/** The ledger service with its own consumer group (its events are not shared with other runs). */
function isolatedLedger(group: string): ServiceDefinition {
  const accountsOf = new WeakMap<ServiceContext, TokenAccounts>();
  const accounts = (ctx: ServiceContext) => {
    if (!accountsOf.has(ctx)) accountsOf.set(ctx, new TokenAccounts(ctx.pool));
    return accountsOf.get(ctx)!;
  };
  return {
    ...ledgerService,
    grpc: (ctx) => [ledgerGrpcService(ctx, accounts(ctx))],
    async start(ctx) {
      const subscription = await ctx.bus.subscribe({
        groupId: group,
        topics: ledgerTopics,
        handle: ledgerEventHandler(ctx.pool, accounts(ctx), ctx.logger),
      });
      return [() => subscription.close()];
    },
  };
}

export async function startStack(
  name: string,
  rateLimits: Omit<AuthRateLimitOptions, 'redis' | 'keyPrefix'> = {
    perIp: 10_000,
    perEmail: 1_000,
    windowSeconds: 600,
  },
  options: StackOptions = {},
): Promise<Stack> {
  // STACK_LOG_LEVEL=warn shows the services' logs when a test needs reading.
  const logger = createLogger(name, (process.env.STACK_LOG_LEVEL as 'warn' | undefined) ?? 'silent');
  const databaseUrl = requireEnv('DATABASE_URL');
  // Topics of its own (ADR 0010): its consumers read this stack's events only, never the run's history.
  const bus = testKafkaBus(name);
  const redis = new Redis(requireEnv('REDIS_URL'));

  // Google's side: a signing key and its certificate endpoint, served here.
  const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const certs: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('cache-control', 'public, max-age=60');
    res.end(JSON.stringify({ [kid]: google.publicKey.export({ type: 'spki', format: 'pem' }) }));
  });
  await new Promise<void>((ok) => certs.listen(0, '127.0.0.1', ok));
  const certsPort = (certs.address() as { port: number }).port;

  const jwtPrivateKeyPem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const admin = { email: `Admin.${randomUUID().slice(0, 8)}@Example.com`, password: 'operator password 1' };

  // Every service in databases of this stack's own: a shared database's outbox would be published
  // by whichever stack's relay got to it first, into that stack's topics, and this stack's
  // consumers (the ledger's sign-up grant, the gateway's cache) would never see it.
  const ledgerRun = randomUUID().slice(0, 8);
  // Identity is a leaf (it knows no ledger address): the two start side by side.
  const [ledgerRunning, identityRunning] = await Promise.all([
    options.billing
      ? startService(isolatedLedger(`gateway-ledger-test-${ledgerRun}`), {
          databaseUrl,
          database: `flatlay_ledger_gateway_test_${ledgerRun}`,
          bus,
          grpcPort: 0,
          logger,
        })
      : startService(ledgerService, {
          databaseUrl,
          database: `flatlay_ledger_gateway_test_${ledgerRun}`,
          bus,
          grpcPort: 0,
          logger,
        }),
    startService(
      createIdentityService({
        JWT_PRIVATE_KEY: jwtPrivateKeyPem,
        GOOGLE_CLIENT_ID,
        GOOGLE_CERTS_URL: `http://127.0.0.1:${certsPort}/oauth2/v1/certs`,
        SUPABASE_JWT_SECRET: SUPABASE_SECRET,
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
      }),
      { databaseUrl, database: `flatlay_identity_gateway_test_${ledgerRun}`, bus, grpcPort: 0, logger },
    ),
  ]);
  const services: RunningService[] = [ledgerRunning, identityRunning];
  let imageStack: ImageStack | undefined;
  if (options.image) {
    const run = randomUUID().slice(0, 8);
    const blobRoot = await mkdtemp(join(tmpdir(), 'flatlay-gateway-blobs-'));
    const blobs = new FolderBlobStore(blobRoot);
    const service = await startService(
      createImageService({
        blobs,
        ledgerAddress: () => `127.0.0.1:${ledgerRunning.port}`,
        engine: async () => options.image!.engine,
        inProcessWorker: true,
        consumerGroup: `gateway-image-test-${run}`,
        workerGroup: `gateway-image-worker-test-${run}`,
        config: { GENERATION_CONCURRENCY: '2', GENERATION_SWEEP_INTERVAL_MS: '200', GENERATION_RETRY_BASE_MS: '10' },
      }),
      { databaseUrl, database: `flatlay_image_gateway_test_${run}`, bus, grpcPort: 0, logger },
    );
    services.push(service);
    imageStack = { blobs, blobRoot, urlKey: urlSigningKey(undefined, true), service };
  }
  // Analytics only where a test needs it: its consumers read every topic.
  if (options.analytics === true)
    services.push(
      await startService(analyticsService, {
        databaseUrl,
        database: `flatlay_analytics_gateway_test_${ledgerRun}`,
        bus,
        grpcPort: 0,
        logger,
      }),
    );
  else if (options.analytics)
    services.push(
      await startService(createAnalyticsService(options.analytics), {
        databaseUrl,
        database: `flatlay_analytics_test_${randomUUID().replaceAll('-', '').slice(0, 10)}`,
        bus,
        grpcPort: 0,
        logger,
      }),
    );
  // Billing's return and checkout addresses are on the gateway's own origin: its port is chosen first.
  const gatewayPort = await freePort();
  const base = `http://127.0.0.1:${gatewayPort}`;
  if (options.billing) {
    const run = randomUUID().slice(0, 8);
    services.push(
      await startService(
        createBillingService({
          env: { PUBLIC_BASE_URL: base, ...options.billing.env },
          consumerGroup: `gateway-billing-test-${run}`,
        }),
        { databaseUrl, database: `flatlay_billing_gateway_test_${run}`, bus, grpcPort: 0, logger },
      ),
    );
  }
  const addresses = services.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` }));
  const dataExports =
    options.dataExports && imageStack
      ? startDataExports(serviceClients(addresses), { blobs: imageStack.blobs, urlKey: imageStack.urlKey }, logger)
      : undefined;
  const app = createGatewayApp({
    logger,
    corsOrigins: ['https://shop.example'],
    services: addresses,
    dataExports,
    // Many guests' tries from 127.0.0.1 in one run: the guest limits are far above them (their
    // own tests set them).
    rateLimits: {
      guestTries: MANY_GUEST_TRIES,
      signUpsPerHour: 100_000,
      ...rateLimits,
      redis,
      keyPrefix: `test-${randomUUID()}`,
    },
    ...(imageStack ? { files: { blobs: imageStack.blobs, urlKey: imageStack.urlKey } } : {}),
  });
  const http = await listen(app, '127.0.0.1', gatewayPort);
  // Tests call the services as the gateway does (this process's service credential).
  const identityClient = createClient(
    identity.IdentityServiceClient,
    `127.0.0.1:${identityRunning.port}`,
    new ServiceCredential('gateway'),
  );
  const ledgerClient = createClient(
    ledger.LedgerServiceClient,
    `127.0.0.1:${ledgerRunning.port}`,
    new ServiceCredential('gateway'),
  );

  const request = async <B = ErrorBody>(method: string, path: string, options: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const res = await fetch(`${base}/api${path}`, { method, headers, body: options.multipart ?? body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed as B, headers: res.headers };
  };

  const stack: Stack = {
    base,
    admin,
    jwtPrivateKeyPem,
    bus,
    identityClient,
    ledgerClient,
    services,
    redis,
    image: imageStack,
    dataExports,
    request,
    async googleIdToken(claims, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: 'https://accounts.google.com',
        aud: options.audience ?? GOOGLE_CLIENT_ID,
        iat: now,
        exp: now + 600,
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
        .sign((options.signWith === 'stranger' ? stranger : google).privateKey);
    },
    async supabaseToken(claims, secret = SUPABASE_SECRET) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ aud: 'authenticated', role: 'authenticated', iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(secret));
    },
    async newUser(prefix = 'user') {
      const email = `${prefix}.${randomUUID().slice(0, 8)}@example.com`;
      const password = 'correct horse battery';
      const res = await request<SessionBody>('POST', '/auth/register', { json: { email, password } });
      if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { email, password, id: res.body.user.id, token: res.body.access_token };
    },
    async stop() {
      await http.stop();
      await dataExports?.stop();
      identityClient.close();
      ledgerClient.close();
      for (const s of [...services].reverse()) await s.stop().catch(() => undefined);
      await bus.close();
      redis.disconnect();
      if (imageStack) await rm(imageStack.blobRoot, { recursive: true, force: true });
      await new Promise((ok) => certs.close(ok));
    },
  };
  return stack;
}
