import { Link } from 'react-router-dom';
import { BeforeAfter } from '../../components/BeforeAfter';
import { DownloadIcon, LockIcon } from '../../components/icons';
import { FREE_SIGNUP_TOKENS, TOKENS_PER_IMAGE, UNLOCK_PRICE_LABEL } from '../../lib/constants';
import type { PreviewState } from './preview-state';

export interface PreviewPanelProps {
  state: PreviewState;
  onDownload: (url: string) => void;
  onPayToUnlock: (enhancementId: string) => void;
  onUnlock: (imageId: string) => void;
  /** A guest's try unlocked with tokens: they sign in (or up) first, the try waits for them. */
  onUnlockWithTokens?: (enhancementId: string) => void;
}

/** The right-hand panel of the hero: one view per state of the enhancement. */
export function PreviewPanel(props: PreviewPanelProps) {
  return (
    <section className="preview" aria-label="Enhancement preview" aria-live="polite" data-state={props.state.kind}>
      <PreviewBody {...props} />
    </section>
  );
}

function PreviewBody({ state, onDownload, onPayToUnlock, onUnlock, onUnlockWithTokens }: PreviewPanelProps) {
  switch (state.kind) {
    case 'idle':
      return (
        <div className="preview__placeholder">
          <span className="preview__badge">AI ENHANCEMENT PREVIEW</span>
          <p className="muted">Your studio flat-lay appears here.</p>
        </div>
      );
    case 'selected':
      return <img className="preview__image" src={state.imageUrl} alt="Selected product" />;
    case 'processing':
      return (
        <>
          <img className="preview__image preview__image--dimmed" src={state.imageUrl} alt="Selected product" />
          <div className="preview__overlay">
            <span className="spinner" aria-hidden="true" />
            <p className="preview__title">AI PROCESSING...</p>
            <p className="small">This might take 10-20 seconds</p>
            {state.uploadPercent !== null && state.uploadPercent < 100 && (
              <div
                className="progress"
                role="progressbar"
                aria-label="Upload"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={state.uploadPercent}
              >
                <div className="progress__bar" style={{ width: `${state.uploadPercent}%` }} />
              </div>
            )}
            {state.uploadPercent !== null && state.uploadPercent < 100 && (
              <p className="small" data-testid="upload-percent">
                Uploading {state.uploadPercent}%
              </p>
            )}
          </div>
        </>
      );
    case 'result':
      return (
        <>
          {state.imageUrl ? (
            <BeforeAfter before={state.imageUrl} after={state.resultUrl} label="Enhanced flat-lay" />
          ) : (
            <img className="preview__image" src={state.resultUrl} alt="Enhanced flat-lay" />
          )}
          <div className="preview__actions">
            {state.laterUrl && (
              <a className="button button--outline" href={state.laterUrl}>
                Link to this image
              </a>
            )}
            <button type="button" className="button button--primary" onClick={() => onDownload(state.resultUrl)}>
              <DownloadIcon /> Download
            </button>
          </div>
        </>
      );
    case 'confirming':
      return (
        <div className="preview__placeholder preview__confirming">
          <span className="spinner" aria-hidden="true" />
          <p className="preview__title">
            {state.status === 'unlocking' ? 'Payment received: unlocking your image...' : 'Confirming your payment...'}
          </p>
          <p className="small">This usually takes a few seconds; your image appears here when it is ready.</p>
          <p className="small">
            Keep this link to open your paid image later, in any browser:{' '}
            <a href={state.laterUrl} className="preview__link">
              {state.laterUrl}
            </a>
          </p>
        </div>
      );
    case 'guest-locked':
      return (
        <>
          <img className="preview__image preview__image--blurred" src={state.previewUrl} alt="" />
          <div className="preview__overlay">
            <LockIcon />
            <p className="preview__title">Your enhanced image is ready!</p>
            <button
              type="button"
              className="button button--primary"
              disabled={state.paying}
              onClick={() => onPayToUnlock(state.enhancementId)}
            >
              {state.paying ? 'Processing...' : `Pay ${UNLOCK_PRICE_LABEL} to Unlock`}
            </button>
            {onUnlockWithTokens && (
              <>
                <button
                  type="button"
                  className="button button--outline"
                  disabled={state.paying}
                  onClick={() => onUnlockWithTokens(state.enhancementId)}
                >
                  Unlock with {TOKENS_PER_IMAGE} tokens
                </button>
                <p className="small">Sign in first, or sign up free with {FREE_SIGNUP_TOKENS} tokens.</p>
              </>
            )}
          </div>
        </>
      );
    case 'locked':
      return (
        <>
          <img className="preview__image preview__image--blurred" src={state.previewUrl} alt="" />
          <div className="preview__overlay">
            <LockIcon />
            <p className="preview__title">Your enhanced image is ready!</p>
            <button type="button" className="button button--primary" onClick={() => onUnlock(state.imageId)}>
              Unlock for {UNLOCK_PRICE_LABEL}
            </button>
            <div className="preview__row">
              <Link to="/dashboard" className="button button--outline">
                Dashboard
              </Link>
              <Link to="/pricing" className="button button--outline">
                Buy Tokens
              </Link>
            </div>
          </div>
        </>
      );
  }
}
