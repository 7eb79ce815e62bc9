import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useImages } from '../../api/queries';
import type { ImageRecord } from '../../api/schema';
import { useAuth } from '../../auth/auth-context';
import { Spinner } from '../../components/Spinner';
import { DASHBOARD_POLL, TOKENS_PER_UNLOCK, UNLOCK_PRICE_LABEL } from '../../lib/constants';
import { downloadResult } from '../enhance/download';
import { unlockByPayment } from '../enhance/unlock';
import { useLiveImageStatus } from './image-events';
import { unlockWithTokens } from './unlock-image';

/**
 * The Recent images grid: a page of the caller's images, kept current by the live stream (or by
 * polling every second, 30 times at most, while one is processing), with paging and unlocks.
 */
export function RecentImages() {
  const [page, setPage] = useState(1);
  const live = useLiveImageStatus(true);
  const polls = useRef(0);
  const images = useImages(page, true, (data) => {
    const processing = data?.images.some((i) => i.status === 'processing');
    if (!processing) polls.current = 0;
    if (live !== 'polling' || !processing || polls.current >= DASHBOARD_POLL.tries) return false;
    polls.current += 1;
    return DASHBOARD_POLL.intervalMs;
  });
  const pagination = images.data?.pagination;

  return (
    <section className="section" aria-labelledby="recent-title" data-live={live}>
      <h2 id="recent-title">Recent images</h2>
      {images.isPending ? (
        <Spinner label="Loading images" />
      ) : images.isError ? (
        <p className="muted">Your images will appear here.</p>
      ) : images.data.images.length === 0 ? (
        <p className="muted">No images yet. Enhance your first photo above.</p>
      ) : (
        <ul className="image-grid">
          {images.data.images.map((img) => (
            <ImageTile key={img.id} image={img} />
          ))}
        </ul>
      )}
      {pagination && pagination.total_pages > 1 && (
        <nav className="pager" aria-label="Recent images pages">
          <button
            type="button"
            className="button button--outline"
            disabled={!pagination.has_prev}
            onClick={() => setPage((p) => Math.max(1, p - 1))}
          >
            Previous
          </button>
          <span aria-live="polite">
            Page {pagination.page} of {pagination.total_pages}
          </span>
          <button
            type="button"
            className="button button--outline"
            disabled={!pagination.has_next}
            onClick={() => setPage((p) => p + 1)}
          >
            Next
          </button>
        </nav>
      )}
    </section>
  );
}

export function ImageTile({ image }: { image: ImageRecord }) {
  if (image.status === 'processing')
    return (
      <li className="image-tile" data-status="processing">
        <Spinner label="Processing" />
      </li>
    );
  if (image.status === 'failed')
    return (
      <li className="image-tile" data-status="failed">
        <p className="error-text">Enhancement failed</p>
      </li>
    );
  if (image.is_locked)
    return (
      <li className="image-tile" data-status="locked">
        <img
          src={image.original_url ?? image.preview_url ?? undefined}
          alt="Locked result (blurred original)"
          className="preview__image--blurred"
        />
        <UnlockOptions imageId={image.id} />
      </li>
    );
  const result = image.processed_url ?? image.image_url ?? null;
  return (
    <li className="image-tile" data-status="completed">
      <img src={result ?? image.original_url ?? undefined} alt="Enhanced product" />
      {result && (
        <button
          type="button"
          className="button button--outline"
          onClick={() => void downloadResult(result, `enhanced-${image.id}.png`)}
        >
          Download
        </button>
      )}
    </li>
  );
}

/** Tokens when the balance allows (free on an unlimited plan), or a one-off payment. */
function UnlockOptions({ imageId }: { imageId: string }) {
  const { profile, setTokenBalance } = useAuth();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'tokens' | 'payment' | null>(null);
  const balance = profile?.tokenBalance ?? 0;

  const withTokens = async () => {
    setBusy('tokens');
    try {
      const answer = await unlockWithTokens(imageId);
      setTokenBalance(answer.new_balance);
      await queryClient.invalidateQueries({ queryKey: ['/api/images/'] });
      void queryClient.invalidateQueries({ queryKey: ['/api/tokens/balance'] });
      void queryClient.invalidateQueries({ queryKey: ['/api/tokens/'] });
    } catch (error) {
      // The spec: dashboard unlock errors are only logged (the tile stays as it was).
      console.error('Unlock with tokens failed:', error);
    } finally {
      setBusy(null);
    }
  };
  const byPayment = async () => {
    setBusy('payment');
    await unlockByPayment(imageId);
    setBusy(null);
  };

  return (
    <div className="unlock-options">
      {profile?.isUnlimited ? (
        <button type="button" className="button button--primary" disabled={busy !== null} onClick={withTokens}>
          Unlock Free (Unlimited)
        </button>
      ) : balance >= TOKENS_PER_UNLOCK ? (
        <button type="button" className="button button--primary" disabled={busy !== null} onClick={withTokens}>
          {busy === 'tokens' ? 'Unlocking...' : `Unlock with ${TOKENS_PER_UNLOCK} tokens`}
        </button>
      ) : (
        <p className="small muted">Need {TOKENS_PER_UNLOCK} tokens to unlock</p>
      )}
      <button type="button" className="button button--outline" disabled={busy !== null} onClick={byPayment}>
        {busy === 'payment' ? 'Processing...' : `Unlock for ${UNLOCK_PRICE_LABEL}`}
      </button>
    </div>
  );
}
