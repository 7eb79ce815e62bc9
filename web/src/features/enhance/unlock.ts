import {
  createAnonymousPayment,
  fetchAnonymousEnhancement,
  unlockAnonymousEnhancement,
  unlockImageByPayment,
} from '../../api/endpoints';
import { ApiError } from '../../api/http';
import { errorToast } from '../../components/toast/toast-store';
import { navigateAway } from '../../lib/navigate-away';
import { paidResultLink, type UnlockAnswer } from './paid-unlock';

/** Sends a guest to pay for their enhancement; false (with a toast) when no payment could be made. */
export async function payToUnlockGuest(enhancementId: string | null): Promise<boolean> {
  if (!enhancementId) {
    errorToast('Payment Error', 'No enhancement ID found. Please try generating again.');
    return false;
  }
  try {
    const answer = await createAnonymousPayment({
      enhancement_id: enhancementId,
      success_url: paidResultLink(window.location.origin, enhancementId),
      cancel_url: `${window.location.origin}/?payment=cancelled`,
    });
    if (!answer?.checkout_url) throw new Error('No checkout url');
    navigateAway(answer.checkout_url);
    return true;
  } catch (error) {
    // A refusal the server explains (409: the image is still being made, or it failed) is shown as said.
    const said = error instanceof ApiError && error.status === 409 ? error.message : '';
    errorToast('Payment Error', said || 'Failed to create payment. Please try again.');
    return false;
  }
}

/**
 * One unlock call, read as the confirmation loop (./paid-unlock) needs it: unlocked, pending (202),
 * refused for good (404, 409), or failed; on a failure the enhancement is read instead (the
 * specification's fallback: it may be unlocked already).
 */
export async function askGuestUnlock(enhancementId: string): Promise<UnlockAnswer> {
  try {
    const answer = await unlockAnonymousEnhancement(enhancementId);
    if (answer && !answer.success) return { kind: 'pending', status: answer.status };
    if (answer?.processed_url) return { kind: 'unlocked', url: answer.processed_url };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 409))
      return { kind: 'refused', message: error.message };
    // Fall through to reading the enhancement.
  }
  try {
    const e = await fetchAnonymousEnhancement(enhancementId);
    if (e.is_paid && e.processed_url) return { kind: 'unlocked', url: e.processed_url };
  } catch {
    // Counted as a failure below.
  }
  return { kind: 'failed' };
}

/** A signed-in person's locked result, unlocked by a one-off payment on the hosted checkout. */
export async function unlockByPayment(imageId: string): Promise<void> {
  try {
    const answer = await unlockImageByPayment(imageId);
    if (!answer?.checkout_url) throw new Error('Failed to start checkout process');
    navigateAway(answer.checkout_url);
  } catch (error) {
    errorToast('Unlock Failed', error instanceof Error ? error.message : 'Failed to start checkout process');
  }
}
