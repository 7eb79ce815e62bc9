import { fileURLToPath } from 'node:url';
import { registry, serviceTopics, startMail, type ServiceContext, type ServiceDefinition } from '@flatlay/platform';
import { AccessTokens } from './app/access-tokens.js';
import { accountMailRenderer } from './app/account-mail.js';
import { LinkTokens } from './app/link-tokens.js';
import { SelfService } from './app/self-service.js';
import { DataExports } from './app/data-exports.js';
import { Accounts } from './app/accounts.js';
import { ensureAdminAccount } from './app/admin-account.js';
import { GoogleVerifier, SupabaseVerifier } from './adapters/external-verifiers.js';
import { Passwords } from './app/passwords.js';
import { Revocations } from './adapters/revocations.js';
import { loadSigningKey } from './app/signing-key.js';
import { loadIdentityConfig, type IdentityConfig } from './config.js';
import { consumedTopics, subscriptionEventHandler } from './consumers/subscription-consumer.js';
import { identityGrpcService } from './grpc/identity-grpc.js';

export type IdentityOverrides = Partial<Record<keyof IdentityConfig, string>>;

/**
 * The identity service, a leaf: it calls no other service (the ledger makes the sign-up grant
 * from UserRegistered). Configuration comes from the environment; `overrides` (a composition
 * root's or a test's) win over it, e.g. the signing key file of the embedded default.
 */
export function createIdentityService(overrides: IdentityOverrides = {}): ServiceDefinition {
  // One Accounts per service context: built in start(), which runs before grpc().
  const appsOf = new WeakMap<
    ServiceContext,
    { accounts: Accounts; self: SelfService; exports: DataExports; siteUrl: string }
  >();
  const apps = (ctx: ServiceContext) => {
    const a = appsOf.get(ctx);
    if (!a) throw new Error('identity: start() must run before grpc()');
    return a;
  };
  return {
    name: 'identity',
    // Migrations are SQL files; they are read from src/ in both the source and the built layout.
    migrationsDir: fileURLToPath(new URL('../src/db/migrations', import.meta.url)),
    topics: serviceTopics('identity'),
    grpc: (ctx) => [identityGrpcService(ctx, apps(ctx))],
    async start(ctx) {
      const config = loadIdentityConfig(overrides);
      const key = await loadSigningKey(
        { privateKeyPem: config.JWT_PRIVATE_KEY, keyFile: config.JWT_KEY_FILE },
        ctx.logger,
      );
      const passwords = new Passwords();
      const app = new Accounts({
        pool: ctx.pool,
        logger: ctx.logger,
        passwords,
        tokens: new AccessTokens(key, {
          issuer: config.JWT_ISSUER,
          audience: config.JWT_AUDIENCE,
          ttlSeconds: config.JWT_TTL_SECONDS,
          adminTtlSeconds: config.JWT_ADMIN_TTL_SECONDS,
        }),
        revocations: new Revocations(ctx.pool),
        google: new GoogleVerifier(config.GOOGLE_CLIENT_ID, config.GOOGLE_CERTS_URL),
        supabase: new SupabaseVerifier(config.SUPABASE_JWT_SECRET),
      });
      const links = new LinkTokens(key, config.JWT_ISSUER);
      appsOf.set(ctx, {
        accounts: app,
        self: new SelfService({ pool: ctx.pool, accounts: app, passwords, links }),
        exports: new DataExports(ctx.pool),
        siteUrl: config.PUBLIC_BASE_URL.replace(/\/$/, ''),
      });
      const stopMail = startMail({
        settings: config,
        pool: ctx.pool,
        logger: ctx.logger,
        render: accountMailRenderer({ db: ctx.pool, links, publicBaseUrl: config.PUBLIC_BASE_URL }),
        what: 'account e-mail (verification, password reset)',
      });
      if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
        const outcome = await ensureAdminAccount(ctx.pool, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
        ctx.logger.info({ outcome }, 'admin account from ADMIN_EMAIL is ready');
      }
      const subscription = await ctx.bus.subscribe({
        groupId: registry.identity.consumes!.group,
        topics: consumedTopics,
        handle: subscriptionEventHandler(ctx.pool, app, ctx.logger),
      });
      return [() => subscription.close(), stopMail];
    },
  };
}

export const identityService: ServiceDefinition = createIdentityService();
