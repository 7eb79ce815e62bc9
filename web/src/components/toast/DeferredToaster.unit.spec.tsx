// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { DeferredToaster } from './DeferredToaster';
import { resetToasts, toast } from './toast-store';

beforeEach(resetToasts);
afterEach(cleanup);

// Issue 31: Radix's toast is not in the initial JavaScript; the area comes with the first toast.
describe('the deferred notification area', () => {
  it('renders nothing before the first toast, then loads the toaster and shows that toast', async () => {
    const { container } = render(<DeferredToaster />);
    assert.equal(container.innerHTML, '');
    assert.equal(screen.queryByRole('region', { name: 'Notifications (F8)' }), null);
    act(() => {
      toast({ title: 'Payment Confirmed', description: 'Your full-resolution image is ready.' });
    });
    await screen.findByRole('region', { name: 'Notifications (F8)' });
    await screen.findByText('Payment Confirmed');
  });
});
