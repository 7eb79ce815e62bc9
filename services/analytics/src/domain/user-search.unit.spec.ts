import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { balanceBand, parseUserSearch, userListQuery } from './user-search.js';

describe('the admin search box', () => {
  it('is everything when blank, and free text (lowercased) otherwise', () => {
    assert.deepEqual(parseUserSearch(''), { kind: 'all' });
    assert.deepEqual(parseUserSearch('   '), { kind: 'all' });
    assert.deepEqual(parseUserSearch(' Ada@Example '), { kind: 'text', text: 'ada@example' });
  });

  it('reads field:value for every documented field and its aliases', () => {
    assert.deepEqual(parseUserSearch('email:ADA'), { kind: 'email', text: 'ada' });
    assert.deepEqual(parseUserSearch('name: Lovelace'), { kind: 'name', text: 'lovelace' });
    assert.deepEqual(parseUserSearch('plan:Unlimited'), { kind: 'plan', plan: 'unlimited' });
    assert.deepEqual(parseUserSearch('plan:none'), { kind: 'plan', plan: 'none' });
    assert.deepEqual(parseUserSearch('tokens:200'), { kind: 'tokens', tokens: 200 });
    assert.deepEqual(parseUserSearch('balance:0'), { kind: 'tokens', tokens: 0 });
    assert.deepEqual(parseUserSearch('status:active'), { kind: 'status', text: 'active' });
    assert.deepEqual(parseUserSearch('date:2024-03'), {
      kind: 'created',
      from: new Date('2024-03-01T00:00:00Z'),
      to: new Date('2024-04-01T00:00:00Z'),
    });
    assert.deepEqual(parseUserSearch('date:2024-12-31'), {
      kind: 'created',
      from: new Date('2024-12-31T00:00:00Z'),
      to: new Date('2025-01-01T00:00:00Z'),
    });
    assert.deepEqual(parseUserSearch('created:2024'), {
      kind: 'created',
      from: new Date('2024-01-01T00:00:00Z'),
      to: new Date('2025-01-01T00:00:00Z'),
    });
    assert.deepEqual(parseUserSearch('date:3/14'), { kind: 'date', text: '3/14' });
    assert.deepEqual(parseUserSearch('created:march'), { kind: 'date', text: 'march' });
  });

  it('matches nothing for an unknown field or a balance that is not a number', () => {
    assert.deepEqual(parseUserSearch('role:admin'), { kind: 'nothing' });
    assert.deepEqual(parseUserSearch('tokens:lots'), { kind: 'nothing' });
  });

  it('keeps text whose colon does not follow a field name (a time, a URL) as free text', () => {
    assert.deepEqual(parseUserSearch('10:30'), { kind: 'text', text: '10:30' });
  });
});

describe('the admin filters', () => {
  it('bands balances as the table does', () => {
    assert.deepEqual(balanceBand('high'), { min: 100 });
    assert.deepEqual(balanceBand('medium'), { min: 10, max: 99 });
    assert.deepEqual(balanceBand('low'), { min: 1, max: 9 });
    assert.deepEqual(balanceBand('zero'), { max: 0 });
    assert.deepEqual(balanceBand('all'), {});
  });

  it('defaults to page 1 of 50 and refuses values outside the lists', () => {
    const q = userListQuery({});
    assert.ok(!('invalid' in q));
    assert.equal(q.page, 1);
    assert.equal(q.pageSize, 50);
    assert.equal(q.signupDays, undefined);
    assert.equal((userListQuery({ signup: '30' }) as { signupDays: number }).signupDays, 30);
    assert.match((userListQuery({ plan: 'gold' }) as { invalid: string }).invalid, /^plan must be one of/);
    assert.match((userListQuery({ signup: '14' }) as { invalid: string }).invalid, /^signup must be one of/);
    assert.match((userListQuery({ balance: 'huge' }) as { invalid: string }).invalid, /^balance must be one of/);
    assert.match((userListQuery({ pageSize: 10_000 }) as { invalid: string }).invalid, /^page_size/);
  });
});
