import type { Queryable } from '@flatlay/platform';

// What the image service knows of each user's plan, from identity's UserPlanChanged events.

export async function hasActiveSubscription(q: Queryable, userId: string): Promise<boolean> {
  const { rows } = await q.query<{ subscription_status: string }>(
    'SELECT subscription_status FROM user_plans WHERE user_id = $1',
    [userId],
  );
  return rows[0]?.subscription_status === 'active';
}

/** The plan identity last announced for the user (none for users never subscribed). */
export async function planOf(q: Queryable, userId: string): Promise<{ plan: string; status: string } | undefined> {
  const { rows } = await q.query<{ subscription_plan: string; subscription_status: string }>(
    'SELECT subscription_plan, subscription_status FROM user_plans WHERE user_id = $1',
    [userId],
  );
  const r = rows[0];
  return r ? { plan: r.subscription_plan, status: r.subscription_status } : undefined;
}

export async function recordPlan(q: Queryable, userId: string, plan: string, status: string, at: Date) {
  await q.query(
    `INSERT INTO user_plans (user_id, subscription_plan, subscription_status, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET subscription_plan = $2, subscription_status = $3, updated_at = $4`,
    [userId, plan, status, at],
  );
}

export async function forgetPlan(q: Queryable, userId: string) {
  await q.query('DELETE FROM user_plans WHERE user_id = $1', [userId]);
}
