import type { Request, Router } from 'express';
import type { identity } from '@flatlay/proto';
import { AppError, call, type Logger } from '@flatlay/platform';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf, NO_TOKEN, type Authenticator } from '../http/auth.js';

const orNull = (s: string) => (s ? s : null);

/** The profile as the web client reads it (the fields its header, dashboard and account pages use), with the ledger's balance. */
export function userBody(u: identity.User | undefined, tokenBalance: number) {
  if (!u) throw new AppError('INTERNAL', 'The identity service answered without a user');
  return {
    id: u.id,
    email: u.email,
    tokenBalance,
    firstName: orNull(u.firstName),
    lastName: orNull(u.lastName),
    name: u.name,
    avatarUrl: orNull(u.avatarUrl),
    stripeCustomerId: orNull(u.stripeCustomerId),
    stripeSubscriptionId: orNull(u.stripeSubscriptionId),
    subscriptionPlan: u.subscriptionPlan || 'none',
    subscriptionStatus: orNull(u.subscriptionStatus),
    subscriptionPlanName: orNull(u.subscriptionPlanName),
    subscriptionPeriodEnd: u.subscriptionPeriodEnd ? u.subscriptionPeriodEnd.toISOString() : null,
    isUnlimited: u.isUnlimited,
    role: u.role,
    createdAt: u.createdAt ? u.createdAt.toISOString() : null,
  };
}

const sessionBody = (s: { accessToken: string; user?: identity.User }, tokenBalance: number) => ({
  access_token: s.accessToken,
  token_type: 'bearer',
  user: userBody(s.user, tokenBalance),
});

/** A string field of the JSON body ('' when absent); anything else than a string is refused. */
export function field(req: Request, name: string, alternatives: string[] = []): string {
  const body = (req.body ?? {}) as Record<string, unknown>;
  for (const key of [name, ...alternatives]) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw new AppError('INVALID_ARGUMENT', `${name} must be a string`);
    return v;
  }
  return '';
}

const bearerOf = (req: Request) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';

type Limit = (action: string, emailOf: (body: Record<string, unknown>) => unknown) => import('express').RequestHandler;

/** /api/auth: register, login, Google and Supabase sign-in, me, logout. */
export function authRoutes(
  api: Router,
  clients: ServiceClients,
  auth: Authenticator,
  limit: Limit,
  logger: Logger,
): void {
  const identityClient = () => clients.identity();

  // Identity calls no other service; the balance in a sign-in answer is the ledger's, asked here.
  // OpenAccount is idempotent and answers the balance, so a new account shows its 200-token grant
  // in this very answer (the ledger's consumer of UserRegistered makes the same grant once). The
  // account exists whatever the ledger does: when it does not answer, the session is still given,
  // with the balance as 0 (the grant follows from the event; /auth/me then shows it).
  const signedIn = async (s: { accessToken: string; user?: identity.User }) => {
    const userId = s.user?.id ?? '';
    let balance = 0;
    try {
      const l = clients.ledger();
      balance = (await call(l, l.openAccount, { userId }, { deadlineMs: 5_000 })).balance;
    } catch (error) {
      logger.warn({ err: error, userId }, 'the ledger did not answer at sign-in: the session shows a balance of 0');
    }
    return sessionBody(s, balance);
  };

  api.post(
    '/auth/register',
    limit('register', (b) => b.email),
    async (req, res) => {
      const c = identityClient();
      const s = await call(
        c,
        c.register,
        { email: field(req, 'email'), password: field(req, 'password') },
        { deadlineMs: 15_000 },
      );
      res.status(201).json(await signedIn(s));
    },
  );

  api.post(
    '/auth/login',
    limit('login', (b) => b.email),
    async (req, res) => {
      const c = identityClient();
      res.json(
        await signedIn(
          await call(
            c,
            c.login,
            { email: field(req, 'email'), password: field(req, 'password') },
            { deadlineMs: 15_000 },
          ),
        ),
      );
    },
  );

  api.post(
    '/auth/google',
    limit('google', () => undefined),
    async (req, res) => {
      const idToken = field(req, 'idToken', ['id_token', 'credential']);
      if (!idToken) throw new AppError('INVALID_ARGUMENT', 'idToken is required');
      const c = identityClient();
      res.json(await signedIn(await call(c, c.loginWithGoogle, { idToken }, { deadlineMs: 15_000 })));
    },
  );

  api.post(
    '/auth/supabase',
    limit('supabase', () => undefined),
    async (req, res) => {
      const accessToken = bearerOf(req);
      if (!accessToken)
        throw new AppError('UNAUTHENTICATED', 'Not authenticated: send the Supabase access token as a bearer token');
      const body = (req.body ?? {}) as Record<string, unknown>;
      const nested = body.user && typeof body.user === 'object' ? (body.user as Record<string, unknown>) : {};
      const pick = (...keys: string[]) => {
        for (const k of keys) for (const src of [body, nested]) if (typeof src[k] === 'string') return src[k] as string;
        return '';
      };
      const c = identityClient();
      const s = await call(
        c,
        c.loginWithSupabase,
        {
          accessToken,
          userId: pick('userId', 'user_id', 'id'),
          email: pick('email'),
          name: pick('name', 'full_name'),
          avatarUrl: pick('avatarUrl', 'avatar_url'),
        },
        { deadlineMs: 15_000 },
      );
      res.json(await signedIn(s));
    },
  );

  api.get('/auth/me', auth.requireUser, async (req, res) => {
    const caller = callerOf(req);
    const metadata = callerMetadata(req);
    const c = identityClient();
    const l = clients.ledger();
    const [profile, balance] = await Promise.all([
      call(c, c.getProfile, { userId: caller.userId }, { metadata }),
      call(l, l.getBalance, { userId: caller.userId }, { metadata }),
    ]);
    res.json(userBody(profile.user, balance.balance));
  });

  // Logout takes the token as presented, without requireUser: an already revoked (or expired)
  // token of ours is fine and answers 2xx again; a missing or foreign token is 401.
  api.post('/auth/logout', async (req, res) => {
    const token = bearerOf(req);
    if (!token) throw new AppError('UNAUTHENTICATED', NO_TOKEN);
    const c = identityClient();
    await call(c, c.revokeToken, { token });
    res.json({ message: 'Logged out' });
  });
}
