// @vitest-environment jsdom
import assert from 'node:assert/strict';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, it } from 'vitest';
import { PreviewPanel } from './PreviewPanel';
import { initialPreview, type PreviewState, previewReducer } from './preview-state';

afterEach(cleanup);

function show(state: PreviewState) {
  const calls: string[] = [];
  render(
    <MemoryRouter>
      <PreviewPanel
        state={state}
        onDownload={(u) => calls.push(`download ${u}`)}
        onPayToUnlock={(id) => calls.push(`pay ${id}`)}
        onUnlock={(id) => calls.push(`unlock ${id}`)}
        onUnlockWithTokens={(id) => calls.push(`tokens ${id}`)}
      />
    </MemoryRouter>,
  );
  return calls;
}

describe('preview state machine', () => {
  it('goes idle, selected, processing, result', () => {
    let s = previewReducer(initialPreview, { type: 'select', imageUrl: 'blob:a' });
    s = previewReducer(s, { type: 'start' });
    assert.deepEqual(s, { kind: 'processing', imageUrl: 'blob:a', uploadPercent: 0 });
    s = previewReducer(s, { type: 'upload-progress', percent: 40 });
    assert.equal(s.kind === 'processing' && s.uploadPercent, 40);
    s = previewReducer(s, { type: 'result', resultUrl: '/r.png' });
    assert.deepEqual(s, { kind: 'result', resultUrl: '/r.png', imageUrl: 'blob:a' });
  });
  it('keeps the chosen photo after a failure, so trying again is one click', () => {
    const processing: PreviewState = { kind: 'processing', imageUrl: 'blob:a', uploadPercent: 100 };
    assert.deepEqual(previewReducer(processing, { type: 'failed' }), { kind: 'selected', imageUrl: 'blob:a' });
    assert.deepEqual(previewReducer(initialPreview, { type: 'failed' }), initialPreview);
  });
  it('marks a guest payment as under way and back', () => {
    let s = previewReducer(initialPreview, { type: 'guest-locked', previewUrl: '/p', enhancementId: 'e1' });
    s = previewReducer(s, { type: 'paying', paying: true });
    assert.equal(s.kind === 'guest-locked' && s.paying, true);
  });
  it('ignores a start without a chosen photo', () => {
    assert.equal(previewReducer(initialPreview, { type: 'start' }), initialPreview);
  });
});

describe('PreviewPanel', () => {
  it('shows the idle badge', () => {
    show(initialPreview);
    screen.getByText('AI ENHANCEMENT PREVIEW');
  });
  it('shows the chosen photo', () => {
    show({ kind: 'selected', imageUrl: 'blob:a' });
    assert.equal(screen.getByRole('img', { name: 'Selected product' }).getAttribute('src'), 'blob:a');
  });
  it('shows processing with the expected wait and the upload progress', () => {
    show({ kind: 'processing', imageUrl: 'blob:a', uploadPercent: 35 });
    screen.getByText('AI PROCESSING...');
    screen.getByText('This might take 10-20 seconds');
    assert.equal(screen.getByRole('progressbar', { name: 'Upload' }).getAttribute('aria-valuenow'), '35');
  });
  it('compares the chosen photo with the result on a labelled slider', () => {
    show({ kind: 'result', resultUrl: '/r.png', imageUrl: 'blob:a' });
    const slider = screen.getByRole('slider', { name: 'Compare before and after: Enhanced flat-lay' });
    const after = screen.getByAltText('Enhanced flat-lay, after') as HTMLImageElement;
    assert.equal(after.style.clipPath, 'inset(0 0 0 50%)');
    fireEvent.change(slider, { target: { value: '20' } });
    assert.equal(after.style.clipPath, 'inset(0 0 0 20%)');
    assert.equal((screen.getByAltText('Enhanced flat-lay, before') as HTMLImageElement).getAttribute('src'), 'blob:a');
  });

  it('offers the download of a result', () => {
    const calls = show({ kind: 'result', resultUrl: '/r.png', imageUrl: null });
    fireEvent.click(screen.getByRole('button', { name: /Download/ }));
    assert.deepEqual(calls, ['download /r.png']);
  });
  it('asks a guest to pay, and says so while the payment is made', () => {
    const calls = show({ kind: 'guest-locked', previewUrl: '/p', enhancementId: 'e1', paying: false });
    screen.getByText('Your enhanced image is ready!');
    fireEvent.click(screen.getByRole('button', { name: 'Pay $5 to Unlock' }));
    assert.deepEqual(calls, ['pay e1']);
    cleanup();
    show({ kind: 'guest-locked', previewUrl: '/p', enhancementId: 'e1', paying: true });
    assert.equal((screen.getByRole('button', { name: 'Processing...' }) as HTMLButtonElement).disabled, true);
  });
  it("says a guest's payment is being confirmed, with the link that opens the paid result later", () => {
    const laterUrl = 'https://flatlay.example/?payment=success&enhancement_id=e1';
    show({ kind: 'confirming', status: 'pending_payment', laterUrl });
    screen.getByText('Confirming your payment...');
    assert.equal(screen.getByRole('link', { name: laterUrl }).getAttribute('href'), laterUrl);
    cleanup();
    show({ kind: 'confirming', status: 'unlocking', laterUrl });
    screen.getByText('Payment received: unlocking your image...');
    cleanup();
    show({ kind: 'result', resultUrl: '/r.png', imageUrl: null, laterUrl });
    assert.equal(screen.getByRole('link', { name: 'Link to this image' }).getAttribute('href'), laterUrl);
  });
  it('offers a guest the unlock with tokens, after signing in', () => {
    const calls = show({ kind: 'guest-locked', previewUrl: '/p', enhancementId: 'e1', paying: false });
    screen.getByText('Sign in first, or sign up free with 200 tokens.');
    fireEvent.click(screen.getByRole('button', { name: 'Unlock with 100 tokens' }));
    assert.deepEqual(calls, ['tokens e1']);
  });
  it('shows a signed-in locked result blurred, with unlock, Dashboard and Buy Tokens', () => {
    const calls = show({ kind: 'locked', previewUrl: '/p', imageId: 'i1' });
    fireEvent.click(screen.getByRole('button', { name: 'Unlock for $5' }));
    assert.deepEqual(calls, ['unlock i1']);
    assert.equal(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('href'), '/dashboard');
    assert.equal(screen.getByRole('link', { name: 'Buy Tokens' }).getAttribute('href'), '/pricing');
    assert.ok(document.querySelector('.preview__image--blurred'));
  });
});
