// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, it, vi } from 'vitest';
import { createQueryClient } from '../../api/queries';
import type { ImagePage, ImageRecord, UserProfile } from '../../api/schema';
import { type AuthApi, AuthContext } from '../../auth/auth-context';
import { RecentImages } from './RecentImages';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const profile = (tokenBalance: number, isUnlimited = false) =>
  ({ id: 'u1', email: 'ada@example.com', tokenBalance, isUnlimited, firstName: 'Ada' }) as UserProfile;

const page = (n: number, total: number, images: ImagePage['images']): ImagePage => ({
  images,
  pagination: { page: n, total_pages: total, has_prev: n > 1, has_next: n < total, total: images.length, limit: 12 },
});

/** An image as the document describes it: nothing to show unless given. */
const image = (fields: Partial<ImageRecord> & Pick<ImageRecord, 'id' | 'status'>): ImageRecord => ({
  image_id: fields.id,
  original_url: null,
  processed_url: null,
  preview_url: null,
  image_url: null,
  is_locked: false,
  createdAt: null,
  enhancement_type: 'clothing',
  ...fields,
});

const locked = image({ id: 'img-locked', status: 'completed', is_locked: true, original_url: '/files/o.jpg' });
const done = image({ id: 'img-done', status: 'completed', is_locked: false, processed_url: '/files/r.png' });

/** Renders the grid over a stubbed /api; EventSource is absent, so the grid polls (the spec's fallback). */
function mount(p: UserProfile, pages: Record<string, ImagePage>) {
  const calls: string[] = [];
  const balances: number[] = [];
  vi.stubGlobal('fetch', async (input: Request | string) => {
    const req = typeof input === 'string' ? new Request(`http://localhost${input}`) : input;
    const url = new URL(req.url);
    calls.push(`${req.method} ${url.pathname}${url.search}`);
    if (url.pathname === '/api/images/events/ticket') return json(200, { ticket: 't', expires_in: 60 });
    if (url.pathname === '/api/images/') return json(200, pages[url.searchParams.get('page') ?? '1']);
    if (url.pathname === '/api/images/unlock-with-tokens/img-locked')
      return json(200, { success: true, tokens_used: 100, new_balance: 0, image_url: '/files/r2.png', image: done });
    return json(404, { detail: 'Not Found' });
  });
  const auth = { profile: p, setTokenBalance: (b: number) => balances.push(b) } as unknown as AuthApi;
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthContext.Provider value={auth}>
        <RecentImages />
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
  return { calls, balances };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Recent images', () => {
  it('offers the token unlock from 100 tokens, and unlocks through the documented call', async () => {
    const { calls, balances } = mount(profile(100), { '1': page(1, 1, [locked, done]) });
    const button = await screen.findByRole('button', { name: 'Unlock with 100 tokens' });
    assert.ok(screen.getByRole('button', { name: 'Unlock for $5' }));
    assert.equal(screen.getAllByRole('button', { name: 'Download' }).length, 1);
    fireEvent.click(button);
    await waitFor(() => assert.deepEqual(balances, [0]));
    assert.ok(calls.includes('POST /api/images/unlock-with-tokens/img-locked'));
  });

  it("says 'Need 100 tokens to unlock' below 100 tokens, and unlocks free on an unlimited plan", async () => {
    mount(profile(99), { '1': page(1, 1, [locked]) });
    await screen.findByText('Need 100 tokens to unlock');
    assert.equal(screen.queryByRole('button', { name: 'Unlock with 100 tokens' }), null);
    cleanup();
    mount(profile(0, true), { '1': page(1, 1, [locked]) });
    await screen.findByRole('button', { name: 'Unlock Free (Unlimited)' });
  });

  it('shows the processing and failed tiles, and pages only when there is more than one page', async () => {
    mount(profile(0), {
      '1': page(1, 2, [image({ id: 'a', status: 'processing' }), image({ id: 'b', status: 'failed' })]),
      '2': page(2, 2, [done]),
    });
    await screen.findByText('Enhancement failed');
    assert.ok(screen.getByText('Page 1 of 2'));
    assert.equal((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled, true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 2');
    assert.equal(screen.getAllByRole('button', { name: 'Download' }).length, 1);
    cleanup();
    mount(profile(0), { '1': page(1, 1, [done]) });
    await screen.findByRole('button', { name: 'Download' });
    assert.equal(screen.queryByRole('navigation', { name: 'Recent images pages' }), null);
  });
});
