import { fetchAnonymousStatus, fetchImageStatus } from '../../api/endpoints';
import { type EnhanceSurface, generationErrorText } from '../../api/generation-errors';
import { reportStatus } from '../../api/http';
import type { AnonymousEnhancement } from '../../api/schema';
import { type UploadBody, type UploadPath, uploadForm } from '../../api/upload';
import { DASHBOARD_POLL, HERO_POLL } from '../../lib/constants';
import { pollUntil } from './poll';

/** How a generation ended, for the preview panel. */
export type GenerationOutcome =
  | { kind: 'result'; resultUrl: string; newBalance?: number }
  | { kind: 'locked'; imageId: string; previewUrl: string; newBalance?: number }
  | { kind: 'guest-locked'; enhancementId: string; previewUrl: string };

/** A failed generation, with the HTTP status when the server answered. */
export class GenerationError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GenerationError';
  }
}

async function upload<P extends UploadPath>(
  path: P,
  form: FormData,
  withToken: boolean,
  surface: EnhanceSurface,
  onProgress: (p: number) => void,
): Promise<UploadBody<P>> {
  const answer = await uploadForm(path, form, { withToken, onProgress });
  if (answer.status < 200 || answer.status >= 300) {
    // A refused token signs the person out; outages are reported as text here, not as a reset,
    // so the person reads why their upload failed.
    if (answer.status === 401) reportStatus(401, withToken);
    throw new GenerationError(generationErrorText(answer, surface), answer.status);
  }
  try {
    return JSON.parse(answer.text) as UploadBody<P>;
  } catch {
    throw new GenerationError('Unexpected server response', answer.status);
  }
}

/** How a signed-in enhancement waits for its result: the hero's and the dashboard's differ (spec section 7). */
export interface SignedInFlow {
  surface: EnhanceSurface;
  poll: { intervalMs: number; timeoutMs?: number; tries?: number };
  timeoutMessage: string;
  /** Told once the server has taken the photo and the result is still being made. */
  onStarted?: () => void;
}

export const HERO_FLOW: SignedInFlow = { surface: 'hero', poll: HERO_POLL, timeoutMessage: 'Generation timed out' };

/** The dashboard polls once a second, 30 times, then sends the person to their gallery. */
export const DASHBOARD_FLOW: SignedInFlow = {
  surface: 'dashboard',
  poll: DASHBOARD_POLL,
  timeoutMessage: 'Processing took too long. Please check your gallery for the result.',
};

/** Reads the answer of POST /api/images/generate (locked, or processing: then polls its status). */
export async function generateSignedIn(
  file: File,
  enhancementType: string,
  onProgress: (p: number) => void,
  flow: SignedInFlow = HERO_FLOW,
  instruction = '',
): Promise<GenerationOutcome> {
  const form = new FormData();
  form.append('file', file);
  form.append('enhancement_type', enhancementType);
  // Advanced prompting (subscribers, where a generative provider is configured): only when given.
  if (instruction.trim()) form.append('instruction', instruction.trim());
  const body = await upload('/images/generate', form, true, flow.surface, onProgress);
  const newBalance = typeof body.newBalance === 'number' ? body.newBalance : undefined;
  const imageId = body.image_id ?? body.image?.id;
  if (!imageId) throw new GenerationError('Unexpected server response');
  if (body.is_locked || body.image?.is_locked) {
    const previewUrl = body.preview_url ?? body.image?.preview_url ?? body.image?.original_url ?? '';
    return { kind: 'locked', imageId, previewUrl, newBalance };
  }
  // The answer is always `processing` (the result is made after it): the status tells the rest.
  if (body.image?.status === 'failed') throw new GenerationError('Generation failed');
  flow.onStarted?.();
  const outcome = await pollUntil<Extract<GenerationOutcome, { kind: 'result' | 'locked' }>>({
    ...flow.poll,
    timeoutMessage: flow.timeoutMessage,
    check: async () => {
      const s = await fetchImageStatus(imageId);
      if (s.status === 'failed') throw new GenerationError(s.error || 'Image processing failed');
      if (s.status !== 'completed') return null;
      if (s.is_locked) return { kind: 'locked', imageId, previewUrl: s.preview_url ?? '' };
      if (s.processed_url) return { kind: 'result', resultUrl: s.processed_url };
      return null;
    },
  });
  return { ...outcome, newBalance };
}

/** A guest's locked result: what to show blurred until they pay. */
export function guestOutcome(e: AnonymousEnhancement, enhancementId: string): GenerationOutcome | null {
  if (e.status === 'failed') throw new GenerationError('Enhancement failed');
  if (e.is_paid && e.processed_url) return { kind: 'result', resultUrl: e.processed_url };
  if (e.status === 'pending_payment' || e.status === 'completed') {
    const previewUrl = e.preview_url ?? e.processed_url ?? e.original_url;
    if (previewUrl) return { kind: 'guest-locked', enhancementId, previewUrl };
  }
  return null;
}

export async function generateAsGuest(
  file: File,
  email: string,
  enhancementType: string,
  onProgress: (p: number) => void,
  poll = HERO_POLL,
): Promise<GenerationOutcome> {
  const form = new FormData();
  // The address before the file: the gateway checks its limits before it stores the upload.
  form.append('email', email);
  form.append('enhancement_type', enhancementType);
  form.append('file', file);
  const body = await upload('/images/anonymous/generate', form, false, 'hero', onProgress);
  const enhancementId = body.enhancement_id;
  if (!enhancementId) throw new GenerationError('Unexpected server response');
  return pollUntil({
    intervalMs: poll.intervalMs,
    timeoutMs: poll.timeoutMs,
    timeoutMessage: 'Generation timed out',
    check: async () => guestOutcome(await fetchAnonymousStatus(enhancementId), enhancementId),
  });
}
