// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { afterEach, describe, it, vi } from 'vitest';
import { payToUnlockGuest } from './unlock';

const toasts = vi.hoisted(() => [] as Array<[string, string | undefined]>);
vi.mock('../../components/toast/toast-store', () => ({
  errorToast: (title: string, description?: string) => void toasts.push([title, description]),
}));

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe("a guest's payment", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    toasts.length = 0;
  });

  it("shows the server's words when it refuses the payment (409: the image is still being made)", async () => {
    const message = 'Your image is still being made. You can pay as soon as it is ready.';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(409, { detail: message, message, code: 'CONFLICT' })),
    );
    assert.equal(await payToUnlockGuest('0b9f6f0e-5d1c-4a6e-9a43-1a2b3c4d5e6f'), false);
    assert.deepEqual(toasts, [['Payment Error', message]]);
  });

  it('keeps the general message for other failures', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(500, { message: 'boom' })),
    );
    assert.equal(await payToUnlockGuest('0b9f6f0e-5d1c-4a6e-9a43-1a2b3c4d5e6f'), false);
    assert.deepEqual(toasts, [['Payment Error', 'Failed to create payment. Please try again.']]);
  });
});
