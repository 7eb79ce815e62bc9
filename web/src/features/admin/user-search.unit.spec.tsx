import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import type { AdminUser } from './admin-api';
import {
  activeFilterCount,
  balanceBand,
  matchesFilters,
  matchesSearch,
  NO_FILTERS,
  pageButtons,
  pageCount,
  pageLocally,
  parseSearch,
} from './user-search';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const DAY = 86_400_000;

function user(over: Partial<AdminUser>): AdminUser {
  return {
    id: over.email ?? 'u',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    picture: '',
    token_balance: 0,
    subscription_status: '',
    subscription_plan: 'none',
    subscription_plan_name: '',
    is_unlimited: false,
    subscription_period_end: '',
    created_at: '2026-03-14T09:00:00Z',
    updated_at: '2026-03-14T09:00:00Z',
    total_images_processed: 0,
    last_active: 'Unknown',
    ...over,
  };
}

const ada = user({
  email: 'ada@example.com',
  name: 'Ada',
  subscription_plan: 'studio',
  subscription_status: 'active',
  token_balance: 4000,
});
const bob = user({
  email: 'bob@shop.test',
  name: 'Bob Builder',
  token_balance: 50,
  created_at: new Date(NOW - 3 * DAY).toISOString(),
});
const cy = user({
  email: 'cy@example.com',
  name: 'Cy',
  subscription_plan: 'unlimited',
  is_unlimited: true,
  token_balance: 5,
});
const dee = user({
  email: 'dee@example.com',
  name: 'Dee',
  subscription_plan: 'lite',
  subscription_status: 'past_due',
  token_balance: 0,
  created_at: new Date(NOW - 45 * DAY).toISOString(),
});
const all = [ada, bob, cy, dee];
const hits = (q: string) => all.filter((u) => matchesSearch(u, parseSearch(q))).map((u) => u.name);

describe('the search parser', () => {
  it('reads free text, field:value and the field aliases, case-insensitively', () => {
    assert.deepEqual(parseSearch('  '), { kind: 'empty' });
    assert.deepEqual(parseSearch('Ada'), { kind: 'text', value: 'ada' });
    assert.deepEqual(parseSearch('Plan:Studio'), { kind: 'field', field: 'plan', value: 'studio' });
    assert.deepEqual(parseSearch('balance:50'), { kind: 'field', field: 'tokens', value: '50' });
    assert.deepEqual(parseSearch('created:2026'), { kind: 'field', field: 'date', value: '2026' });
    assert.deepEqual(parseSearch('colour:red'), { kind: 'unknown-field', field: 'colour', value: 'red' });
  });
  it('matches free text against email, name, plan, unlimited, balance, status and date parts', () => {
    assert.deepEqual(hits('BUILDER'), ['Bob Builder']);
    assert.deepEqual(hits('shop.test'), ['Bob Builder']);
    assert.deepEqual(hits('unlimited'), ['Cy']);
    assert.deepEqual(hits('past_due'), ['Dee']);
    assert.deepEqual(hits('4000'), ['Ada']);
    assert.deepEqual(hits('march'), ['Ada', 'Cy']);
  });
  it('matches one field with field:value, and nothing for an unknown field', () => {
    assert.deepEqual(hits('plan:studio'), ['Ada']);
    assert.deepEqual(hits('plan:none'), ['Bob Builder']);
    assert.deepEqual(hits('plan:unlimited'), ['Cy']);
    assert.deepEqual(hits('email:bob@'), ['Bob Builder']);
    assert.deepEqual(hits('tokens:5'), ['Cy']);
    assert.deepEqual(hits('status:active'), ['Ada']);
    assert.deepEqual(hits('date:2026-03-14'), ['Ada', 'Cy']);
    assert.deepEqual(hits('colour:red'), []);
  });
});

describe('the filters', () => {
  it('bands balances: high 100+, medium 10-99, low 1-9, zero', () => {
    assert.deepEqual([100, 99, 10, 9, 1, 0].map(balanceBand), ['high', 'medium', 'medium', 'low', 'low', 'zero']);
  });
  it('filters by plan, signup window and balance together', () => {
    const pick = (f: Partial<typeof NO_FILTERS>) =>
      all.filter((u) => matchesFilters(u, { ...NO_FILTERS, ...f }, NOW)).map((u) => u.name);
    assert.deepEqual(pick({ plan: 'lite' }), ['Dee']);
    assert.deepEqual(pick({ plan: 'none' }), ['Bob Builder']);
    assert.deepEqual(pick({ plan: 'unlimited' }), ['Cy']);
    assert.deepEqual(pick({ signup: '7' }), ['Bob Builder']);
    assert.deepEqual(pick({ signup: '90' }), ['Bob Builder', 'Dee']);
    assert.deepEqual(pick({ balance: 'medium' }), ['Bob Builder']);
    assert.deepEqual(pick({ balance: 'zero', signup: '90' }), ['Dee']);
    assert.equal(activeFilterCount({ plan: 'lite', signup: 'all', balance: 'zero' }), 2);
  });
});

describe('paging', () => {
  it('shows at most five page buttons around the current page', () => {
    assert.deepEqual(pageButtons(1, 3), [1, 2, 3]);
    assert.deepEqual(pageButtons(1, 20), [1, 2, 3, 4, 5]);
    assert.deepEqual(pageButtons(10, 20), [8, 9, 10, 11, 12]);
    assert.deepEqual(pageButtons(20, 20), [16, 17, 18, 19, 20]);
    assert.equal(pageCount(0), 1);
    assert.equal(pageCount(101), 3);
  });
  it('searches, filters and pages the bare list 50 at a time (the fallback)', () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      user({ email: `u${i}@example.com`, name: `User ${i}`, token_balance: i }),
    );
    const page3 = pageLocally(many, '', { ...NO_FILTERS, balance: 'high' }, 1, 50, NOW);
    assert.equal(page3.total, 20);
    const second = pageLocally(many, 'example', NO_FILTERS, 3, 50, NOW);
    assert.deepEqual([second.total, second.users.length, second.users[0]?.name], [120, 20, 'User 100']);
  });
});
