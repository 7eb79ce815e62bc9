import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError, call, keyedUuid } from '@flatlay/platform';
import { analytics } from '@flatlay/proto';
import { toApi } from '../api/api-view.js';
import { idempotencyKeyOf } from '../api/idempotency-key.js';
import { refusal } from '../api/responses.js';
import { route, type ApiRoute } from '../api/route.js';
import { emailField } from '../api/schemas.js';
import type { ServiceClients } from '../clients.js';
import { callerMetadata, callerOf } from '../http/auth.js';

const AdminUser = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().meta({ description: "Display name; the e-mail's local part when the profile has none" }),
    picture: z.string(),
    token_balance: z.number().int(),
    subscription_status: z.string().meta({ description: '"" (never subscribed), active, past_due or canceled' }),
    subscription_plan: z.enum(['none', 'lite', 'studio', 'bulk', 'unlimited']),
    subscription_plan_name: z.string(),
    is_unlimited: z.boolean(),
    subscription_period_end: z.string().meta({ description: 'ISO 8601, or "" without a subscription period' }),
    created_at: z.string(),
    updated_at: z.string(),
    total_images_processed: z.number().int(),
    last_active: z.string().meta({ description: 'ISO 8601 of the newest activity, or "Unknown"' }),
  })
  .meta({ id: 'AdminUser' });

const UsersPage = z.object({
  users: z.array(AdminUser),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  total_exact: z.boolean().meta({
    description: 'False when total is an estimate (more than 10,000 matches are not counted one by one)',
  }),
});

const SignupStats = z.object({ new_signups_24h: z.number().int(), total_users: z.number().int() });
const PaidUserStats = z.object({ paid_users_last_24h: z.number().int(), total_paid_users: z.number().int() });
const SignupTrend = z.object({
  period: z.string(),
  points: z.array(z.object({ date: z.string(), label: z.string(), signups: z.number().int() })),
});

const Overview = z.object({
  ...SignupStats.shape,
  ...PaidUserStats.shape,
  signups_this_month: z.number().int(),
  signups_last_month: z.number().int(),
  monthly_growth_rate: z.number(),
  user_retention_30d: z.number(),
  conversion_rate: z.number(),
  plan_distribution: z.object({
    lite: z.number().int(),
    studio: z.number().int(),
    bulk: z.number().int(),
    unlimited: z.number().int(),
    none: z.number().int(),
  }),
  anonymous_purchases: z.number().int(),
  anonymous_purchases_24h: z.number().int(),
  payment_disputes: z.number().int().meta({ description: 'Chargebacks recorded (Stripe disputes)' }),
  payment_disputes_open: z.number().int().meta({ description: 'Chargebacks not yet won or lost' }),
  projection_lag_seconds: z.number().meta({ description: 'Now minus the newest absorbed event; -1 before any' }),
  newest_event_at: z.string(),
  gpu_pool: z.string().meta({ description: 'One line on the GPU pool, or "not in a cluster"' }),
  gpu_pool_detail: z.object({
    in_cluster: z.boolean(),
    gpu_nodes: z.number().int(),
    gpu_nodes_ready: z.number().int(),
    worker_pods: z.number().int(),
    worker_pods_ready: z.number().int(),
    queue_lag: z.number().int().meta({ description: 'Generation jobs not yet taken by the workers; -1 when unknown' }),
    problem: z.string().meta({ description: 'Why a part could not be read ("" when all was read)' }),
  }),
});

const intParam = (name: string, max: number, description: string) =>
  z.coerce
    .number({ error: `${name} must be an integer between 1 and ${max}` })
    .int({ error: `${name} must be an integer between 1 and ${max}` })
    .min(1, { error: `${name} must be an integer between 1 and ${max}` })
    .max(max, { error: `${name} must be an integer between 1 and ${max}` })
    .optional()
    .meta({ description, type: 'integer' });

const USER_LIST_PARAMS = ['q', 'plan', 'signup', 'balance', 'page', 'page_size'];
const Message = z.object({ message: z.string() });

/** /api/admin/*: the dashboard's users, figures, token adjustments and account deletion (admin token only). */
/** The JSON body of an operator's action on one user: the user's e-mail address, and the action's own fields. */
const aboutOneUser = <S extends z.ZodRawShape>(fields: S) => ({
  type: 'application/json' as const,
  limit: 4_096,
  schema: z.object({ user_email: emailField('user_email is required', 'user_email'), ...fields }),
});

export function adminRoutes(clients: ServiceClients): ApiRoute[] {
  const tags = ['admin'];
  return [
    route({
      method: 'get',
      path: '/admin/users',
      tags,
      access: 'admin',
      summary: 'Every user, or one page of a search with filters',
      description:
        'Without query parameters: the bare array of every user record, newest first. With any of them: the page ' +
        '`{users, total, page, page_size}`. `q` is free text matched case-insensitively against e-mail, name, plan, ' +
        '"unlimited", token balance, date parts and status, or `field:value` with field email, name, plan, ' +
        'tokens|balance, status or date|created (an unknown field matches nothing).',
      request: {
        query: z.object({
          q: z.string().max(200).optional().meta({ description: 'Search text or field:value' }),
          plan: z.enum(['all', 'lite', 'studio', 'unlimited', 'none']).optional(),
          signup: z.enum(['all', '7', '30', '90']).optional().meta({ description: 'Signed up in the last N days' }),
          balance: z
            .enum(['all', 'high', 'medium', 'low', 'zero'])
            .optional()
            .meta({ description: 'high ≥ 100, medium 10-99, low 1-9, zero 0' }),
          page: intParam('page', 1_000_000, '1-based page (default 1)'),
          page_size: intParam('page_size', 500, 'Rows per page (default 50)'),
        }),
      },
      responses: {
        200: {
          description: 'The users',
          schema: z.union([z.array(AdminUser), UsersPage]),
        },
      },
      async handle(req, res, { query }) {
        const a = clients.analytics();
        const paged = USER_LIST_PARAMS.some((k) => req.query[k] !== undefined);
        const list = await call(
          a,
          a.listUsers,
          {
            paged,
            q: query.q ?? '',
            plan: query.plan ?? '',
            signup: query.signup ?? '',
            balance: query.balance ?? '',
            page: query.page ?? 0,
            pageSize: query.page_size ?? 0,
          },
          { metadata: callerMetadata(req), deadlineMs: 60_000 },
        );
        const page = toApi(UsersPage, list);
        res.json(paged ? page : page.users);
      },
    }),

    route({
      method: 'get',
      path: '/admin/stats/signups',
      tags,
      access: 'admin',
      summary: 'Sign-ups of the last 24 hours',
      responses: {
        200: {
          description: 'Sign-up figures',
          schema: SignupStats,
        },
      },
      async handle(req, res) {
        const a = clients.analytics();
        const s = await call(a, a.getSignupStats, {}, { metadata: callerMetadata(req) });
        res.json(toApi(SignupStats, s));
      },
    }),

    route({
      method: 'get',
      path: '/admin/stats/paid-users',
      tags,
      access: 'admin',
      summary: 'Users who paid in the last 24 hours, and ever',
      responses: {
        200: {
          description: 'Paid-user figures',
          schema: PaidUserStats,
        },
      },
      async handle(req, res) {
        const a = clients.analytics();
        const s = await call(a, a.getPaidUserStats, {}, { metadata: callerMetadata(req) });
        res.json(toApi(PaidUserStats, s));
      },
    }),

    route({
      method: 'get',
      path: '/admin/stats/trend',
      tags,
      access: 'admin',
      summary: 'Sign-ups per day, week or month over a period',
      description:
        '7d: 7 daily points; 30d: 30 daily; 3m: 13 weekly; 1y: 12 monthly; lifetime: monthly from the first sign-up.',
      request: {
        query: z.object({ period: z.enum(['7d', '30d', '3m', '1y', 'lifetime']).default('7d') }),
      },
      responses: {
        200: {
          description: 'The trend, oldest point first',
          schema: SignupTrend,
        },
      },
      async handle(req, res, { query }) {
        const a = clients.analytics();
        const t = await call(a, a.getSignupTrend, { period: query.period }, { metadata: callerMetadata(req) });
        res.json(toApi(SignupTrend, t));
      },
    }),

    route({
      method: 'get',
      path: '/admin/stats/overview',
      tags,
      access: 'admin',
      summary: 'Growth, retention, conversion, plan mix, guest purchases and projection lag',
      responses: {
        200: {
          description: 'The dashboard figures (docs/decisions/0801-analytics.md defines each)',
          schema: Overview,
        },
      },
      async handle(req, res) {
        const a = clients.analytics();
        const o = await call(a, a.getOverview, {}, { metadata: callerMetadata(req) });
        res.json(
          toApi(Overview, {
            ...o,
            // Absent only from an analytics service older than these fields: an empty pool, no lag known.
            planDistribution: o.planDistribution ?? analytics.PlanDistribution.fromPartial({}),
            gpuPoolDetail: o.gpuPoolDetail ?? analytics.GpuPool.fromPartial({ queueLag: -1 }),
          }),
        );
      },
    }),

    route({
      method: 'post',
      path: '/admin/users/unlimited',
      tags,
      access: 'admin',
      summary: 'Grants or revokes the unlimited plan (no payment): billing publishes it as it does a paid plan',
      request: {
        body: aboutOneUser({ granted: z.boolean({ error: 'granted must be true or false' }) }),
      },
      responses: {
        200: { description: 'Recorded; the profile follows within moments', schema: Message },
        404: refusal('NOT_FOUND', 'User not found, or (revoking) no unlimited plan granted by an administrator'),
        409: refusal('CONFLICT', 'Already unlimited, or paying for another plan'),
      },
      async handle(req, res, { body }) {
        const metadata = callerMetadata(req);
        const a = clients.analytics();
        const { user } = await call(a, a.findUser, { email: body.user_email.trim() }, { metadata });
        if (!user) throw new AppError('NOT_FOUND', 'User not found');
        const b = clients.billing();
        const r = await call(
          b,
          b.setComplimentaryPlan,
          { userId: user.id, plan: 'unlimited', granted: body.granted, operatorId: callerOf(req).userId },
          { metadata },
        );
        res.json({ message: r.message.replace(user.id, user.email) });
      },
    }),

    route({
      method: 'post',
      path: '/admin/tokens/adjust',
      tags,
      access: 'admin',
      idempotencyKey: true,
      summary: "Adds or deducts tokens on a user's account (a deduct stops at 0)",
      request: {
        body: aboutOneUser({
          tokens: z
            .number({ error: 'tokens must be a whole number greater than 0' })
            .int({ error: 'tokens must be a whole number greater than 0' })
            .positive({ error: 'tokens must be a whole number greater than 0' })
            .max(1_000_000_000, { error: 'tokens must be at most 1000000000' }),
          action: z.enum(['add', 'deduct'], { error: 'action must be add or deduct' }),
        }),
      },
      responses: {
        200: {
          description: 'Applied',
          schema: Message.extend({ token_balance: z.number().int(), applied: z.number().int() }),
          example: { message: 'Added 50 tokens to ada@example.com (balance 250)', token_balance: 250, applied: 50 },
        },
        404: refusal('NOT_FOUND', 'User not found'),
      },
      async handle(req, res, { body }) {
        const metadata = callerMetadata(req);
        const email = body.user_email.trim();
        const a = clients.analytics();
        const { user } = await call(a, a.findUser, { email }, { metadata });
        if (!user) throw new AppError('NOT_FOUND', 'User not found');
        if (user.isUnlimited)
          throw new AppError(
            'CONFLICT',
            `${user.email} is on the unlimited plan: tokens are not counted for them, so there is nothing to adjust`,
          );
        const l = clients.ledger();
        const r = await call(
          l,
          l.adjust,
          {
            userId: user.id,
            // With a key, a retried adjustment is the same adjustment: the ledger applies it once
            // (a repeat answers applied 0 and the balance as it stands).
            adjustmentId: idempotencyKeyOf(req)
              ? keyedUuid(`adjustment:${callerOf(req).userId}:${user.id}\n${idempotencyKeyOf(req)}`)
              : randomUUID(),
            operatorId: callerOf(req).userId,
            reason: 'Adjusted by an administrator',
            direction: body.action,
            tokens: body.tokens,
          },
          { metadata },
        );
        const message =
          body.action === 'add'
            ? `Added ${r.applied} tokens to ${user.email} (balance ${r.balance})`
            : `Deducted ${r.applied} tokens from ${user.email} (balance ${r.balance})`;
        res.json({ message, token_balance: r.balance, applied: r.applied });
      },
    }),

    route({
      method: 'delete',
      path: '/admin/user/delete',
      tags,
      access: 'admin',
      summary: "Deletes a user's account and personal data (not an administrator's, not your own)",
      request: { query: z.object({ email: emailField('email is required') }) },
      responses: {
        200: { description: 'Deleted', schema: Message, example: { message: 'User account deleted successfully' } },
        404: refusal('NOT_FOUND', 'User not found'),
      },
      async handle(req, res, { query }) {
        const metadata = callerMetadata(req);
        const email = query.email.trim().toLowerCase();
        const i = clients.identity();
        const me = await call(i, i.getProfile, { userId: callerOf(req).userId }, { metadata });
        if (me.user?.email.toLowerCase() === email)
          throw new AppError('CONFLICT', 'You cannot delete your own account');
        await call(i, i.deleteUser, { userId: '', email }, { metadata });
        res.json({ message: 'User account deleted successfully' });
      },
    }),
  ];
}
