// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { Toaster } from './Toaster';
import { dismissToast, errorToast, resetToasts, toast } from './toast-store';

beforeEach(resetToasts);
afterEach(cleanup);

describe('toasts', () => {
  it('shows one toast at a time: a new one replaces the last', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Signed in successfully!' });
      errorToast('Insufficient Tokens', 'You need 100 tokens to enhance an image.');
    });
    assert.equal(screen.queryByText('Signed in successfully!'), null);
    screen.getByText('Insufficient Tokens');
    assert.equal(document.querySelectorAll('.toast').length, 1);
    assert.ok(document.querySelector('.toast--destructive'));
  });
  it('closes a dismissed toast', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'HEIC Converted' });
    });
    act(() => dismissToast());
    assert.equal(screen.queryByText('HEIC Converted'), null);
  });
  it('names the notification area with its F8 hotkey', () => {
    render(<Toaster />);
    screen.getByRole('region', { name: 'Notifications (F8)' });
  });
});
