import {
  createAnonymousPayment,
  fetchAnonymousEnhancement,
  unlockAnonymousEnhancement,
  unlockImageByPayment,
} from '../../api/endpoints';
import { ApiError } from '../../api/http';
import { errorToast } from '../../components/toast/toast-store';
import { navigateAway } from '../../lib/navigate-away';

/** Sends a guest to pay for their enhancement; false (with a toast) when no payment could be made. */
export async function payToUnlockGuest(enhancementId: string | null): Promise<boolean> {
  if (!enhancementId) {
    errorToast('Payment Error', 'No enhancement ID found. Please try generating again.');
    return false;
  }
  const here = `${window.location.origin}/`;
  try {
    const answer = await createAnonymousPayment({
      enhancement_id: enhancementId,
      success_url: `${here}?payment=success&enhancement_id=${encodeURIComponent(enhancementId)}`,
      cancel_url: `${here}?payment=cancelled`,
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

/** After payment: unlock, or when that fails read the enhancement (the webhook may have unlocked it). */
export async function resumeGuestPayment(enhancementId: string): Promise<string | null> {
  try {
    const unlocked = await unlockAnonymousEnhancement(enhancementId);
    if (unlocked?.processed_url) return unlocked.processed_url;
  } catch {
    // Fall through to reading the enhancement.
  }
  try {
    const e = await fetchAnonymousEnhancement(enhancementId);
    if (e.is_paid && e.processed_url) return e.processed_url;
  } catch {
    // Reported below.
  }
  errorToast('Unlock Failed', 'Failed to load your unlocked image.');
  return null;
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
