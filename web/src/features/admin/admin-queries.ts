// The dashboard's server data: users and daily stats refreshed every 30 s, the trend (growth)
// every 60 s, three retries each except when the admin session is refused (the dialog opens).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  fetchOverview,
  fetchPaidUserStats,
  fetchSignupStats,
  fetchTrend,
  fetchUsers,
  isAdminAuthError,
  type TrendPeriod,
  type UserQuery,
} from './admin-api';
import { withPendingChanges } from './pending-changes';
import { pageLocally, type UserPage } from './user-search';

export const USERS_REFRESH_MS = 30_000;
export const DAILY_STATS_REFRESH_MS = 30_000;
export const GROWTH_REFRESH_MS = 60_000;

/** Three retries; tests shorten the delay (never the count) so error states show quickly. */
export const adminRetryPolicy = { retries: 3, delayMs: (attempt: number) => Math.min(1000 * 2 ** attempt, 8000) };

const retry = (failures: number, error: unknown) => failures < adminRetryPolicy.retries && !isAdminAuthError(error);
const retryDelay = (attempt: number) => adminRetryPolicy.delayMs(attempt);

export const adminKeys = {
  all: ['admin'] as const,
  users: (q: UserQuery) => ['admin', 'users', q] as const,
  signups: ['admin', 'stats', 'signups'] as const,
  paidUsers: ['admin', 'stats', 'paid-users'] as const,
  overview: ['admin', 'stats', 'overview'] as const,
  trend: (period: TrendPeriod) => ['admin', 'stats', 'trend', period] as const,
};

/** The daily stats are live: never cached, refetched every 30 s. */
const dailyStats = { staleTime: 0, gcTime: 0, refetchInterval: DAILY_STATS_REFRESH_MS, retry, retryDelay };

export function useUserPage(query: UserQuery, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.users(query),
    queryFn: async ({ signal }): Promise<UserPage> => {
      const answer = await fetchUsers(query, signal);
      // A server that answers the bare list (the original's shape): search and page it here.
      if (Array.isArray(answer)) return pageLocally(answer, query.q, query, query.page, query.pageSize);
      return {
        users: answer.users,
        total: answer.total,
        page: answer.page,
        pageSize: answer.page_size,
        totalExact: answer.total_exact,
      };
    },
    // Inline on purpose: it runs on every render, so a change confirmed a moment ago shows at once.
    select: (page: UserPage) => withPendingChanges(page),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: USERS_REFRESH_MS,
    retry,
    retryDelay,
  });
}

export function useSignupStats(enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.signups,
    queryFn: ({ signal }) => fetchSignupStats(signal),
    enabled,
    ...dailyStats,
  });
}

export function usePaidUserStats(enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.paidUsers,
    queryFn: ({ signal }) => fetchPaidUserStats(signal),
    enabled,
    ...dailyStats,
  });
}

export function useOverview(enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.overview,
    queryFn: ({ signal }) => fetchOverview(signal),
    enabled,
    ...dailyStats,
  });
}

export function useTrend(period: TrendPeriod, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.trend(period),
    queryFn: ({ signal }) => fetchTrend(period, signal),
    enabled,
    refetchInterval: GROWTH_REFRESH_MS,
    retry,
    retryDelay,
  });
}
