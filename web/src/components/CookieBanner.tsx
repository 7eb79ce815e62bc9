import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { setCookieChoice, useCookieConsent } from '../lib/consent';
import { pixelsConfigured, startPixelsWhenAllowed } from '../lib/pixels';
import { useHydrated } from '../lib/hydrated';
import { useWebConfig } from '../lib/runtime-config';

/**
 * Asks before any marketing pixel loads (EU visitors must be asked): shown while no choice is
 * remembered and this deployment has a pixel to load, or when the footer's Cookie settings asks
 * for it. Accept and Reject are the same kind of button, side by side: neither is the easy one.
 */
export function CookieBanner() {
  const { choice, settingsOpen } = useCookieConsent();
  useWebConfig();
  // The choice lives in this browser's storage: a prerendered page has no banner until hydrated.
  const hydrated = useHydrated();

  // An earlier accept (this visit or a past one) starts the pixels: their page view counts.
  useEffect(() => {
    if (choice === 'accepted') void startPixelsWhenAllowed();
  }, [choice]);

  if (!hydrated || (!settingsOpen && (choice !== null || !pixelsConfigured()))) return null;
  return (
    <section className="cookie-banner" aria-labelledby="cookie-banner-title">
      <div className="cookie-banner__text">
        <h2 id="cookie-banner-title">Cookies for marketing</h2>
        <p>
          With your permission we load the Meta and TikTok advertising pixels, which set cookies to measure our ads
          (sign-ups and purchases). Nothing of them loads unless you accept. You can change your choice at any time
          under Cookie settings at the bottom of the page. <Link to="/privacy">Privacy Policy</Link>
        </p>
        {choice && (
          <p className="small muted">Your current choice: {choice === 'accepted' ? 'accepted' : 'rejected'}.</p>
        )}
      </div>
      <div className="cookie-banner__actions">
        <button type="button" className="button button--outline" onClick={() => setCookieChoice('rejected')}>
          Reject
        </button>
        <button type="button" className="button button--outline" onClick={() => setCookieChoice('accepted')}>
          Accept
        </button>
      </div>
    </section>
  );
}
