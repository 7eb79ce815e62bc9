// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, it, vi } from 'vitest';
import { createQueryClient } from '../../api/queries';
import { type AuthApi, AuthContext } from '../../auth/auth-context';
import { BatchUpload } from './BatchUpload';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The one upload the batch sends: the test moves its progress and answers it. */
class FakeXhr {
  static last: FakeXhr | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  withCredentials = false;
  url = '';
  body: FormData | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const photo = (name: string, bytes: number) => new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' });
const gen = (id: string) => ({ success: true, id, image_id: id, enhancement_id: id, status: 'processing' });

function mount(statuses: Record<string, unknown>) {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('fetch', async (input: Request | string) => {
    const req = typeof input === 'string' ? new Request(`http://localhost${input}`) : input;
    const id = new URL(req.url).pathname.replace('/api/images/status/', '');
    return statuses[id] ? json(200, statuses[id]) : json(404, { detail: 'Not Found' });
  });
  const balances: number[] = [];
  const auth = { profile: null, setTokenBalance: (b: number) => balances.push(b) } as unknown as AuthApi;
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthContext.Provider value={auth}>
        <BatchUpload />
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
  return { balances };
}

const bar = (name: string) => screen.getByRole('progressbar', { name: `Upload of ${name}` }).getAttribute('value');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  FakeXhr.last = null;
});

describe('batch upload on the dashboard', () => {
  it('sends the picked photos in one request, moves a bar per file, then shows each result as it completes', async () => {
    const done = (id: string) => ({
      id,
      image_id: id,
      status: 'completed',
      is_locked: false,
      processed_url: `/r/${id}.png`,
    });
    const { balances } = mount({
      a1: done('a1'),
      b2: { id: 'b2', image_id: 'b2', status: 'completed', is_locked: true, preview_url: '/p/b2.png' },
    });
    fireEvent.change(screen.getByLabelText('Photos for a batch'), {
      target: { files: [photo('a.jpg', 100), photo('b.jpg', 100)] },
    });
    await waitFor(() => assert.ok(FakeXhr.last));
    const xhr = FakeXhr.last as unknown as FakeXhr;
    assert.equal(xhr.url, '/api/images/batch');
    assert.deepEqual(
      xhr.body?.getAll('files').map((f) => (f as File).name),
      ['a.jpg', 'b.jpg'],
    );
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 150, total: 200 });
    await waitFor(() => assert.deepEqual([bar('a.jpg'), bar('b.jpg')], ['100', '50']));
    xhr.answer(200, { success: true, images: [gen('a1'), gen('b2')], tokensUsed: 100, newBalance: 0 });
    await screen.findByRole('img', { name: 'Result of a.jpg' });
    await screen.findByText('Locked: unlock it in Recent images');
    assert.deepEqual(balances, [0]);
  });

  it("shows the server's refusal in its own words", async () => {
    mount({});
    fireEvent.change(screen.getByLabelText('Photos for a batch'), { target: { files: [photo('a.jpg', 10)] } });
    await waitFor(() => assert.ok(FakeXhr.last));
    (FakeXhr.last as unknown as FakeXhr).answer(400, {
      detail: 'At most 20 file(s) in "files"',
      message: 'At most 20 file(s) in "files"',
      code: 'INVALID_ARGUMENT',
    });
    assert.equal((await screen.findByRole('alert')).textContent, 'At most 20 file(s) in "files"');
    assert.equal(screen.queryAllByRole('progressbar').length, 0);
  });
});
