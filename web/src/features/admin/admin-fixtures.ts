// Answers of the admin API for component tests, in the documented shapes.
import type { AdminUser, Overview, Trend } from './admin-api';

export function adminUser(over: Partial<AdminUser> = {}): AdminUser {
  const email = over.email ?? 'ada@example.com';
  return {
    id: `id-${email}`,
    email,
    name: email.split('@')[0] ?? email,
    picture: '',
    token_balance: 200,
    subscription_status: '',
    subscription_plan: 'none',
    subscription_plan_name: '',
    is_unlimited: false,
    subscription_period_end: '',
    created_at: '2026-11-20T10:00:00Z',
    updated_at: '2026-11-20T10:00:00Z',
    total_images_processed: 0,
    last_active: 'Unknown',
    ...over,
  };
}

export const overview: Overview = {
  total_users: 1234,
  new_signups_24h: 12,
  paid_users_last_24h: 3,
  total_paid_users: 87,
  signups_this_month: 150,
  signups_last_month: 120,
  monthly_growth_rate: 25,
  user_retention_30d: 41.5,
  conversion_rate: 25,
  plan_distribution: { lite: 40, studio: 30, bulk: 0, unlimited: 5, none: 1159 },
  anonymous_purchases: 9,
  anonymous_purchases_24h: 1,
  payment_disputes: 2,
  payment_disputes_open: 1,
  projection_lag_seconds: 0.2,
  newest_event_at: '2026-11-23T10:00:00Z',
  gpu_pool: 'not in a cluster',
  gpu_pool_detail: {
    in_cluster: false,
    gpu_nodes: 0,
    gpu_nodes_ready: 0,
    worker_pods: 0,
    worker_pods_ready: 0,
    queue_lag: -1,
    problem: '',
  },
};

export function trend(period: string): Trend {
  const count = { '7d': 7, '30d': 30, '3m': 13, '1y': 12, lifetime: 3 }[period] ?? 7;
  return {
    period,
    points: Array.from({ length: count }, (_, i) => ({
      date: `2026-01-${String(i + 1).padStart(2, '0')}`,
      label: `${period} #${i + 1}`,
      signups: i,
    })),
  };
}

export const page = (users: AdminUser[], total = users.length, pageNo = 1) => ({
  users,
  total,
  page: pageNo,
  page_size: 50,
  total_exact: true,
});
