// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { fakeApi, json, renderPage } from '../../test/fake-api';
import { trend } from './admin-fixtures';
import { adminRetryPolicy } from './admin-queries';
import { SignupsTrend } from './SignupsTrend';

beforeEach(() => {
  adminRetryPolicy.delayMs = () => 1;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const dots = () => screen.getAllByRole('button', { name: /signups?$/ });

describe('the Signups Trend chart', () => {
  it('switches through the five periods, one point per bucket', async () => {
    const api = fakeApi({
      'GET /api/admin/stats/trend': ({ url }) => json(200, trend(url.searchParams.get('period') ?? '')),
    });
    renderPage(<SignupsTrend enabled />, { path: '/admin' });
    await waitFor(() => assert.equal(dots().length, 7));
    const expected: [string, string, number][] = [
      ['30D', '30d', 30],
      ['3M', '3m', 13],
      ['1Y', '1y', 12],
      ['Lifetime', 'lifetime', 3],
      ['7D', '7d', 7],
    ];
    for (const [label, period, count] of expected) {
      await userEvent.click(screen.getByRole('button', { name: label }));
      assert.equal(screen.getByRole('button', { name: label }).getAttribute('aria-pressed'), 'true');
      await waitFor(() => assert.equal(dots().length, count));
      assert.equal(dots()[0]?.getAttribute('aria-label'), `${period} #1: 0 signups`);
    }
    assert.deepEqual(
      // (7d may be asked again at the end: its answer went stale while the others were shown.)
      api
        .calls('GET', '/api/admin/stats/trend')
        .slice(0, 5)
        .map((r) => r.url.searchParams.get('period')),
      ['7d', '30d', '3m', '1y', 'lifetime'],
    );
  });

  it('selects a point for its detail, deselects it, and clears it on a period change', async () => {
    fakeApi({ 'GET /api/admin/stats/trend': ({ url }) => json(200, trend(url.searchParams.get('period') ?? '')) });
    renderPage(<SignupsTrend enabled />, { path: '/admin' });
    await waitFor(() => assert.equal(dots().length, 7));
    await userEvent.click(screen.getByRole('button', { name: '7d #3: 2 signups' }));
    screen.getByText('7d #3', { selector: 'strong' });
    assert.equal(screen.getByRole('button', { name: '7d #3: 2 signups' }).getAttribute('aria-pressed'), 'true');
    await userEvent.click(screen.getByRole('button', { name: '7d #3: 2 signups' }));
    assert.equal(screen.queryByText('7d #3', { selector: 'strong' }), null);
    await userEvent.click(screen.getByRole('button', { name: '7d #2: 1 signup' }));
    screen.getByRole('button', { name: 'Clear Selection' });
    await userEvent.click(screen.getByRole('button', { name: '1Y' }));
    assert.equal(screen.queryByRole('button', { name: 'Clear Selection' }), null);
  });
});
