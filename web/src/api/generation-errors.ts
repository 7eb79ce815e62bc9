import { errorTextOf } from './error-text';
import type { UploadAnswer } from './upload';

export type EnhanceSurface = 'hero' | 'dashboard';

const TOO_LONG = {
  hero: 'Server took too long to respond. Please try again in a moment.',
  dashboard: 'Server took too long to respond. Please try again shortly.',
};

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** What a failed generation upload says: a proxy timeout page becomes a sentence, a JSON error its text. */
export function generationErrorText(answer: UploadAnswer, surface: EnhanceSurface): string {
  if ((answer.status === 502 || answer.status === 504) && !isJson(answer.text)) return TOO_LONG[surface];
  if (isJson(answer.text)) {
    const text = errorTextOf(answer.text, '', 0);
    if (text !== 'Request failed' && !text.startsWith('{')) return text;
  }
  return `HTTP ${answer.status}: generation failed`;
}

export const loginRequired = {
  title: 'Login Required',
  description: 'Please log in to enhance images, or continue as a guest for $5.',
};

export function needsLogin(message: string, status?: number): boolean {
  return status === 401 || message.includes('Authentication required') || /\b401\b/.test(message);
}
