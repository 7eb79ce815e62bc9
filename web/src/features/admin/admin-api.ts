// Every call the operator pages make (/api/admin and /api/settings), through the typed client with
// the admin token (never the customer's) as bearer. Answers are read with the app's one set of
// rules (./http), except that a 401/403 here ends the admin session only: the customer's session
// is left alone.
import type { Middleware } from 'openapi-fetch';
import { actionKeyHeader } from '../../api/action-key';
import { typedClient } from '../../api/client';
import { ApiError, readAnswer } from '../../api/http';
import type { JsonAnswer, Schema } from '../../api/schema';
import { clearAdminToken, readAdminToken } from './admin-session';

export type AdminUser = Schema<'AdminUser'>;
export type UserListAnswer = JsonAnswer<'getAdminUsers', 200>;
export type Overview = JsonAnswer<'getAdminStatsOverview', 200>;
export type SignupStats = JsonAnswer<'getAdminStatsSignups', 200>;
export type PaidUserStats = JsonAnswer<'getAdminStatsPaidUsers', 200>;
export type Trend = JsonAnswer<'getAdminStatsTrend', 200>;
export type TrendPeriod = '7d' | '30d' | '3m' | '1y' | 'lifetime';
export type PlanFilter = 'all' | 'lite' | 'studio' | 'unlimited' | 'none';
export type SignupFilter = 'all' | '7' | '30' | '90';
export type BalanceFilter = 'all' | 'high' | 'medium' | 'low' | 'zero';

/** "Admin authentication required": the token is gone and the login dialog must open. */
export const isAdminAuthError = (error: unknown) =>
  error instanceof ApiError && (error.status === 401 || error.status === 403);

function withAdminToken(headers: Headers): void {
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const token = readAdminToken();
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
}

/** After any admin call but the login itself: 401/403 removes the admin token. */
async function readAdminAnswer(response: Response, isLogin: boolean): Promise<unknown> {
  if (!isLogin && (response.status === 401 || response.status === 403)) clearAdminToken();
  // `false`: a refused admin token must not sign the customer out (503/504 still reset the app).
  return readAnswer(response, false);
}

const adminRules: Middleware = {
  onRequest({ request }) {
    if (!request.url.endsWith('/admin/login')) withAdminToken(request.headers);
    else request.headers.set('Accept', 'application/json');
    return request;
  },
  async onResponse({ request, response }) {
    await readAdminAnswer(response.clone(), request.url.endsWith('/admin/login'));
    return response;
  },
};

/** The typed client with the admin token and the admin session's rules (the settings calls use it too). */
export const adminApi = typedClient(adminRules);

export async function dataOf<T>(call: Promise<{ data?: T }>): Promise<T> {
  return (await call).data as T;
}

/** The form the original dashboard posts: the e-mail travels as `username`. */
export const adminLogin = (email: string, password: string) =>
  dataOf(
    adminApi.POST('/admin/login', {
      body: { username: email, password },
      bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    }),
  );

export interface UserQuery {
  q: string;
  plan: PlanFilter;
  signup: SignupFilter;
  balance: BalanceFilter;
  page: number;
  pageSize: number;
}

export const fetchUsers = (query: UserQuery, signal?: AbortSignal) =>
  dataOf(
    adminApi.GET('/admin/users', {
      params: {
        query: {
          ...(query.q.trim() ? { q: query.q.trim() } : {}),
          plan: query.plan,
          signup: query.signup,
          balance: query.balance,
          page: query.page,
          page_size: query.pageSize,
        },
      },
      signal,
    }),
  );

export const fetchSignupStats = (signal?: AbortSignal) => dataOf(adminApi.GET('/admin/stats/signups', { signal }));
export const fetchPaidUserStats = (signal?: AbortSignal) => dataOf(adminApi.GET('/admin/stats/paid-users', { signal }));
export const fetchOverview = (signal?: AbortSignal) => dataOf(adminApi.GET('/admin/stats/overview', { signal }));
export const fetchTrend = (period: TrendPeriod, signal?: AbortSignal) =>
  dataOf(adminApi.GET('/admin/stats/trend', { params: { query: { period } }, signal }));

export const adjustTokens = (body: { user_email: string; tokens: number; action: 'add' | 'deduct' }) =>
  dataOf(adminApi.POST('/admin/tokens/adjust', { body, params: { header: actionKeyHeader() } }));

/** Grants (true) or revokes (false) the unlimited plan; billing publishes it as it does a paid plan. */
export const setUnlimited = (body: { user_email: string; granted: boolean }) =>
  dataOf(adminApi.POST('/admin/users/unlimited', { body }));

export const deleteUser = (email: string) =>
  dataOf(adminApi.DELETE('/admin/user/delete', { params: { query: { email } } }));
