// What the preview panel shows, as one state machine: idle, a chosen photo, processing, then a
// result, a guest's locked result (pay to unlock) or a signed-in person's locked result.

export type PreviewState =
  | { kind: 'idle' }
  | { kind: 'selected'; imageUrl: string }
  | { kind: 'processing'; imageUrl: string; uploadPercent: number | null }
  | { kind: 'result'; resultUrl: string; imageUrl: string | null; laterUrl?: string }
  /** A guest back from paying: the payment is being confirmed; laterUrl opens the paid result later. */
  | { kind: 'confirming'; status: 'pending_payment' | 'unlocking'; laterUrl: string }
  | { kind: 'guest-locked'; previewUrl: string; enhancementId: string; paying: boolean }
  | { kind: 'locked'; previewUrl: string; imageId: string };

export type PreviewAction =
  | { type: 'select'; imageUrl: string }
  | { type: 'start' }
  | { type: 'upload-progress'; percent: number }
  | { type: 'result'; resultUrl: string; laterUrl?: string }
  | { type: 'confirming'; status: 'pending_payment' | 'unlocking'; laterUrl: string }
  | { type: 'guest-locked'; previewUrl: string; enhancementId: string }
  | { type: 'locked'; previewUrl: string; imageId: string }
  | { type: 'paying'; paying: boolean }
  | { type: 'failed' }
  | { type: 'reset' };

export const initialPreview: PreviewState = { kind: 'idle' };

const chosenImage = (s: PreviewState): string | null =>
  s.kind === 'selected' || s.kind === 'processing' ? s.imageUrl : s.kind === 'result' ? s.imageUrl : null;

export function previewReducer(state: PreviewState, action: PreviewAction): PreviewState {
  switch (action.type) {
    case 'select':
      return { kind: 'selected', imageUrl: action.imageUrl };
    case 'start':
      return state.kind === 'selected' ? { kind: 'processing', imageUrl: state.imageUrl, uploadPercent: 0 } : state;
    case 'upload-progress':
      return state.kind === 'processing' ? { ...state, uploadPercent: action.percent } : state;
    case 'result':
      return {
        kind: 'result',
        resultUrl: action.resultUrl,
        imageUrl: chosenImage(state),
        ...(action.laterUrl ? { laterUrl: action.laterUrl } : {}),
      };
    case 'confirming':
      return { kind: 'confirming', status: action.status, laterUrl: action.laterUrl };
    case 'guest-locked':
      return {
        kind: 'guest-locked',
        previewUrl: action.previewUrl,
        enhancementId: action.enhancementId,
        paying: false,
      };
    case 'locked':
      return { kind: 'locked', previewUrl: action.previewUrl, imageId: action.imageId };
    case 'paying':
      return state.kind === 'guest-locked' ? { ...state, paying: action.paying } : state;
    case 'failed': {
      // The photo stays chosen, so trying again is one click.
      const imageUrl = chosenImage(state);
      return imageUrl ? { kind: 'selected', imageUrl } : initialPreview;
    }
    case 'reset':
      return initialPreview;
  }
}
