import type { Request } from 'express';
import { z } from 'zod';
import type { identity } from '@flatlay/proto';
import { AppError, call, GOOGLE_TOKEN_MALFORMED, JWT_SHAPE, type Logger } from '@flatlay/platform';
import { toApi } from '../api/api-view.js';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import { EMAIL_MAX_LENGTH, emailField, NewPassword, passwordField, Session, User } from '../api/schemas.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf, NO_TOKEN } from '../http/auth.js';
import { GatewayAuthRefusal } from '../http/errors.js';

/** The profile as the web client reads it (the fields its header, dashboard and account pages use), with the ledger's balance. */
export function userBody(u: identity.User | undefined, tokenBalance: number) {
  if (!u) throw new AppError('INTERNAL', 'The identity service answered without a user');
  // A profile without a plan is on none.
  return toApi(User, { ...u, tokenBalance, subscriptionPlan: u.subscriptionPlan || 'none' });
}

const sessionBody = (s: { accessToken: string; user?: identity.User }, tokenBalance: number) => ({
  access_token: s.accessToken,
  token_type: 'bearer' as const,
  user: userBody(s.user, tokenBalance),
});

const bearerOf = (req: Request) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';

const SIGN_IN_MISSING = 'Email and password are required';
/** A JWT's compact form: header, payload and signature, each base64url, joined by dots. */
const signedInAnswer = { 200: { description: 'Signed in', schema: Session } };
const providerNotConfigured = (what: string) =>
  refusal(
    'NOT_CONFIGURED',
    `${what} sign-in is not configured on this server. Please sign in with your email and password.`,
    `${what} sign-in is not configured on this server (not an outage)`,
  );
const adminRefused = refusal('PERMISSION_DENIED', 'Administrator accounts sign in with their password');

// The Supabase client sends the person's fields flat or under `user`; the token's claims win.
const supabaseFields = {
  id: z.string().max(256).optional(),
  userId: z.string().max(256).optional(),
  user_id: z.string().max(256).optional(),
  email: z.string().max(EMAIL_MAX_LENGTH).optional(),
  name: z.string().max(512).optional(),
  full_name: z.string().max(512).optional(),
  avatarUrl: z.string().max(2048).optional(),
  avatar_url: z.string().max(2048).optional(),
};
const SupabaseSignIn = z.object({ ...supabaseFields, user: z.object(supabaseFields).optional() });

// Optional (the specification's payloads have no such field): a label, recorded by identity with
// the time on a new account; without it the account is made all the same (ADR 0804). Identity
// checks the same rule (services/identity/src/domain/consent.ts).
const CONSENT_VERSION_INVALID =
  'consent_version must be a label of at most 64 letters, digits, dots, dashes or underscores';
const consentVersion = z
  .string()
  .max(64, { error: CONSENT_VERSION_INVALID })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: CONSENT_VERSION_INVALID })
  .optional()
  .meta({
    description:
      'Version of the sign-up consent text (privacy policy, terms, being at least 18) the person was shown; recorded with the time when the account is created. Optional',
    example: '2026-11-signup-18plus',
  });

/** /api/auth: register, login, Google and Supabase sign-in, me, logout. */
export function authRoutes(clients: ServiceClients, logger: Logger): ApiRoute[] {
  const identityClient = () => clients.identity();
  const tags = ['auth'];

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

  return [
    route({
      method: 'post',
      path: '/auth/register',
      tags,
      access: 'none',
      rateLimit: { action: 'register', emailOf: (b) => b.email },
      summary: 'Create an account with e-mail and password (200 free tokens)',
      request: {
        body: {
          type: 'application/json',
          limit: 16_384,
          schema: z.object({ email: emailField(), password: NewPassword, consent_version: consentVersion }),
        },
      },
      responses: {
        201: { description: 'Account created and signed in', schema: Session },
        409: refusal('ALREADY_EXISTS', 'An account with this email already exists'),
      },
      async handle(_req, res, { body }) {
        const c = identityClient();
        const s = await call(
          c,
          c.register,
          { email: body.email, password: body.password, consentVersion: body.consent_version ?? '' },
          { deadlineMs: 15_000 },
        );
        res.status(201).json(await signedIn(s));
      },
    }),

    route({
      method: 'post',
      path: '/auth/login',
      tags,
      access: 'none',
      rateLimit: { action: 'login', emailOf: (b) => b.email },
      summary: 'Sign in with e-mail and password',
      request: {
        body: {
          type: 'application/json',
          limit: 16_384,
          schema: z.object({ email: emailField(SIGN_IN_MISSING), password: passwordField(SIGN_IN_MISSING) }),
        },
      },
      responses: {
        ...signedInAnswer,
        401: refusal(
          'UNAUTHENTICATED',
          'Invalid email or password',
          'Invalid email or password (the same answer for an unknown e-mail)',
        ),
      },
      async handle(_req, res, { body }) {
        const c = identityClient();
        res.json(
          await signedIn(
            await call(c, c.login, { email: body.email, password: body.password }, { deadlineMs: 15_000 }),
          ),
        );
      },
    }),

    route({
      method: 'post',
      path: '/auth/google',
      tags,
      access: 'none',
      rateLimit: { action: 'google' },
      summary: 'Sign in with a Google ID token; creates or links the account',
      request: {
        body: {
          type: 'application/json',
          limit: 16_384,
          schema: z.object({
            idToken: z
              .string({ error: 'idToken is required' })
              .min(1, { error: 'idToken is required' })
              .max(8192)
              // Checking a token fetches Google's certificates first: one that is not a JWT at all
              // is refused here, before any network call (and never reads as Google's outage).
              .regex(JWT_SHAPE, { error: GOOGLE_TOKEN_MALFORMED })
              .meta({ description: 'Google ID token (a JWT: three base64url parts joined by dots)' }),
            consent_version: consentVersion,
          }),
        },
      },
      responses: {
        ...signedInAnswer,
        401: refusal('UNAUTHENTICATED', 'Could not verify Google account'),
        403: adminRefused,
        409: refusal(
          'CONFLICT',
          'An account with this email already exists. Confirm your email address with your sign-in provider first, or sign in with your password.',
          'An account with this email exists and the Google address is not verified',
        ),
        501: providerNotConfigured('Google'),
        503: refusal(
          'UNAVAILABLE',
          'Google accounts API unavailable',
          "Google's signing certificates could not be fetched: a real outage, never a refused token",
        ),
      },
      async handle(_req, res, { body }) {
        const c = identityClient();
        const s = await call(
          c,
          c.loginWithGoogle,
          { idToken: body.idToken, consentVersion: body.consent_version ?? '' },
          { deadlineMs: 15_000 },
        );
        res.json(await signedIn(s));
      },
    }),

    route({
      method: 'post',
      path: '/auth/supabase',
      tags,
      access: 'supabase',
      rateLimit: { action: 'supabase' },
      summary: 'Sign in with a Supabase access token (bearer); creates or links the account',
      request: { body: { type: 'application/json', limit: 16_384, optional: true, schema: SupabaseSignIn } },
      responses: {
        ...signedInAnswer,
        401: refusal(
          'UNAUTHENTICATED',
          'Not authenticated: the Supabase token is invalid or expired',
          'Missing or invalid Supabase token, or one for another user',
        ),
        403: adminRefused,
        409: refusal(
          'CONFLICT',
          'An account with this email already exists. Confirm your email address with your sign-in provider first, or sign in with your password.',
          'An account with this email exists and the Supabase address is not verified',
        ),
        501: providerNotConfigured('Supabase'),
      },
      async handle(req, res, { body }) {
        const accessToken = bearerOf(req);
        if (!accessToken)
          throw new GatewayAuthRefusal(
            'UNAUTHENTICATED',
            'Not authenticated: send the Supabase access token as a bearer token',
          );
        const nested = body.user ?? {};
        const pick = (...keys: (keyof typeof supabaseFields)[]) => {
          for (const k of keys) for (const src of [body, nested]) if (typeof src[k] === 'string') return src[k];
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
    }),

    route({
      method: 'get',
      path: '/auth/me',
      tags,
      access: 'user',
      summary: 'The profile of the caller',
      responses: { 200: { description: 'Profile', schema: User } },
      async handle(req, res) {
        const caller = callerOf(req);
        const metadata = callerMetadata(req);
        const c = identityClient();
        const l = clients.ledger();
        const [profile, balance] = await Promise.all([
          call(c, c.getProfile, { userId: caller.userId }, { metadata }),
          call(l, l.getBalance, { userId: caller.userId }, { metadata }),
        ]);
        res.json(userBody(profile.user, balance.balance));
      },
    }),

    // Logout takes the token as presented, without requireUser: an already revoked (or expired)
    // token of ours is fine and answers 2xx again; a missing or foreign token is 401.
    route({
      method: 'post',
      path: '/auth/logout',
      tags,
      access: 'session',
      summary: 'Revoke the presented token until it would expire',
      responses: {
        200: {
          description: 'Logged out',
          schema: z.object({ message: z.string() }),
          example: { message: 'Logged out' },
        },
      },
      async handle(req, res) {
        const token = bearerOf(req);
        if (!token) throw new GatewayAuthRefusal('UNAUTHENTICATED', NO_TOKEN);
        const c = identityClient();
        await call(c, c.revokeToken, { token });
        res.json({ message: 'Logged out' });
      },
    }),
  ];
}
