import { analytics } from '@flatlay/proto';
import {
  AppError,
  generationWorkQueue,
  isDeadLetterTopic,
  parseDeadLetterTopic,
  registry,
  serviceNames,
  serviceStatus,
  unary,
  UnknownTopicError,
  type DeadLetterAdmin,
  type GrpcService,
  type ServiceContext,
} from '@flatlay/platform';
import { userListQuery } from '../domain/user-search.js';
import { isTrendPeriod, trendPeriods } from '../domain/signup-stats.js';
import type { GpuPool } from '../adapters/gpu-pool.js';
import {
  allUsers,
  findUserByEmail,
  overview,
  paidUserStats,
  searchUsers,
  signupStats,
  signupTrend,
  type AdminUserRecord,
} from '../adapters/admin-queries.js';
import type { OperatorSettings } from '../adapters/settings-store.js';

const toProto = (u: AdminUserRecord): analytics.AdminUser => ({
  id: u.id,
  email: u.email,
  name: u.name,
  picture: u.picture,
  tokenBalance: u.token_balance,
  subscriptionStatus: u.subscription_status,
  subscriptionPlan: u.subscription_plan,
  subscriptionPlanName: u.subscription_plan_name,
  isUnlimited: u.is_unlimited,
  subscriptionPeriodEnd: u.subscription_period_end,
  createdAt: u.created_at,
  updatedAt: u.updated_at,
  totalImagesProcessed: u.total_images_processed,
  lastActive: u.last_active,
});

/** The bus's dead-letter operations; a bus without them is a deployment without dead letters to show. */
function deadLetters(ctx: ServiceContext): DeadLetterAdmin {
  const bus = ctx.bus as Partial<DeadLetterAdmin>;
  if (typeof bus.listDeadLetters !== 'function')
    throw new AppError('NOT_CONFIGURED', "This deployment's bus keeps no dead letters");
  return bus as DeadLetterAdmin;
}

/** Maps the AnalyticsService protobuf API to the read models' queries; `clock` is "now" for every figure. */
export function analyticsGrpcService(
  ctx: ServiceContext,
  clock: () => Date,
  settings: OperatorSettings,
  gpuPool: () => Promise<GpuPool>,
): GrpcService {
  const { pool, logger } = ctx;
  const implementation: analytics.AnalyticsServiceServer = {
    getServiceStatus: unary(logger, async () => serviceStatus(ctx)),

    listUsers: unary(logger, async (req: analytics.ListUsersRequest) => {
      if (!req.paged) {
        const users = await allUsers(pool);
        return { users: users.map(toProto), total: users.length, page: 1, pageSize: users.length, totalExact: true };
      }
      const q = userListQuery({
        q: req.q,
        plan: req.plan,
        signup: req.signup,
        balance: req.balance,
        page: req.page,
        pageSize: req.pageSize,
      });
      if ('invalid' in q) throw new AppError('INVALID_ARGUMENT', q.invalid);
      const { users, total, totalExact } = await searchUsers(pool, q, clock());
      return { users: users.map(toProto), total, page: q.page, pageSize: q.pageSize, totalExact };
    }),

    findUser: unary(logger, async (req: analytics.FindUserRequest) => {
      if (!req.email.trim()) throw new AppError('INVALID_ARGUMENT', 'email is required');
      const user = await findUserByEmail(pool, req.email);
      if (!user) throw new AppError('NOT_FOUND', 'User not found');
      return { user: toProto(user) };
    }),

    getSignupStats: unary(logger, async () => {
      const s = await signupStats(pool, clock());
      return { newSignups24h: s.newSignups24h, totalUsers: s.totalUsers };
    }),

    getPaidUserStats: unary(logger, async () => paidUserStats(pool, clock())),

    getSignupTrend: unary(logger, async (req: analytics.GetSignupTrendRequest) => {
      if (!isTrendPeriod(req.period))
        throw new AppError('INVALID_ARGUMENT', `period must be one of ${trendPeriods.join(', ')}`);
      return { period: req.period, points: await signupTrend(pool, req.period, clock()) };
    }),

    getOverview: unary(logger, async () => {
      const [figures, gpu] = await Promise.all([overview(pool, clock()), gpuPool()]);
      const { summary, ...detail } = gpu;
      return { ...figures, gpuPool: summary, gpuPoolDetail: detail };
    }),

    getKeyStatuses: unary(logger, async () => ({
      keys: (await settings.view()).map((s) => ({ key: s.key, status: s.status })),
    })),

    getSettingsConfig: unary(logger, async () => ({
      generativeProvider: settings.provider,
      generativeApiUrl: settings.config.GENERATIVE_API_URL,
      stripeSecretKeyConfigured: Boolean(settings.config.STRIPE_SECRET_KEY),
      stripeApiUrl: settings.config.STRIPE_API_URL ?? 'https://api.stripe.com',
      encryptionConfigured: settings.encryptionConfigured,
      settings: await settings.view(),
      testableServices: settings.services,
    })),

    saveSettings: unary(logger, async (req: analytics.SaveSettingsRequest) => {
      if (!req.operatorId) throw new AppError('INVALID_ARGUMENT', 'operator_id is required');
      // Settings changes are dated by the wall clock: a key's status compares them with test times.
      return settings.save(req.operatorId, req.values, new Date());
    }),

    testConnection: unary(logger, async (req: analytics.TestConnectionRequest) => {
      if (!req.operatorId) throw new AppError('INVALID_ARGUMENT', 'operator_id is required');
      return settings.test(req.service, req.operatorId, () => new Date());
    }),

    // The operator's dead letters (ADR 0009): analytics is the operator's service, and the bus it
    // holds answers for every consumer group's dead-letter topics.
    listDeadLetters: unary(logger, async () => ({
      deadLetters: (await deadLetters(ctx).listDeadLetters()).map((d) => ({
        deadLetterTopic: d.deadLetterTopic,
        topic: d.topic,
        groupId: d.groupId,
        count: d.count,
        oldestAt: d.oldestAt ?? '',
        lastError: d.lastError ?? '',
      })),
    })),

    replayDeadLetters: unary(logger, async (req: analytics.ReplayDeadLettersRequest) => ({
      count: await onDeadLetters(req, (admin, topic, limit) => admin.replayDeadLetters(topic, limit)),
    })),

    discardDeadLetters: unary(logger, async (req: analytics.DiscardDeadLettersRequest) => ({
      count: await onDeadLetters(req, (admin, topic, limit) => admin.discardDeadLetters(topic, limit)),
    })),
  };
  const onDeadLetters = async (
    req: { deadLetterTopic: string; limit: number },
    act: (admin: DeadLetterAdmin, topic: string, limit: number | undefined) => Promise<number>,
  ) => {
    if (!isDeadLetterTopic(req.deadLetterTopic))
      throw new AppError('INVALID_ARGUMENT', 'dead_letter_topic must be a dead-letter topic, <topic>.dlq.<group>');
    if (req.limit < 0) throw new AppError('INVALID_ARGUMENT', 'limit must be 0 (all) or more');
    try {
      return await act(deadLetters(ctx), req.deadLetterTopic, req.limit > 0 ? req.limit : undefined);
    } catch (error) {
      // A group's dead-letter topic is made on its first letter: before that, one of a real group
      // and topic has nothing waiting (0); any other name names nothing.
      if (error instanceof UnknownTopicError && isKnownDeadLetterTopic(req.deadLetterTopic)) return 0;
      if (error instanceof UnknownTopicError)
        throw new AppError('NOT_FOUND', `No dead-letter topic ${req.deadLetterTopic}`);
      throw error;
    }
  };
  return {
    name: 'flatlay.analytics.v1.AnalyticsService',
    definition: analytics.AnalyticsServiceService,
    implementation,
  };
}

/** Whether a dead-letter topic's name is that of a consumer group the registry has, on a topic it reads. */
function isKnownDeadLetterTopic(name: string): boolean {
  const parsed = parseDeadLetterTopic(name);
  if (!parsed) return false;
  const groups = [
    ...serviceNames.flatMap((n) => (registry[n].consumes ? [registry[n].consumes] : [])),
    { group: generationWorkQueue.group, topics: [generationWorkQueue.topic] },
  ];
  return groups.some((g) => g.group === parsed.groupId && g.topics.includes(parsed.topic));
}
