import { useState } from 'react';
import { marketingAllowed, openCookieSettings } from '../lib/consent';
import { type PixelEvent, trackPixel } from '../lib/pixels';
import { metaPixelId, tiktokPixelId } from '../lib/runtime-config';

const EVENTS: PixelEvent[] = ['Lead', 'ViewContent', 'InitiateCheckout', 'Purchase', 'CompleteRegistration'];

/** A page for checking the advertising pixel: fires each tracked event by hand and says whether a pixel heard it. */
export default function PixelTestPage() {
  const [log, setLog] = useState<string[]>([]);
  const fire = (event: PixelEvent) => {
    const configured = Boolean(metaPixelId() || tiktokPixelId());
    trackPixel(event, { value: 0, currency: 'USD' });
    const outcome = !configured
      ? 'no pixel configured here'
      : marketingAllowed()
        ? 'sent to the configured pixels'
        : 'not sent: marketing cookies are not accepted (Cookie settings)';
    setLog((l) => [`${event}: ${outcome}`, ...l]);
  };
  return (
    <div className="page page--narrow">
      <h1>Tracking test</h1>
      <p className="muted">
        Fire each marketing event once and check it arrives in the ads manager. Events are sent only after marketing
        cookies are accepted.{' '}
        <button type="button" className="link-button" onClick={openCookieSettings}>
          Cookie settings
        </button>
      </p>
      <div className="links-row">
        {EVENTS.map((e) => (
          <button key={e} type="button" className="button button--outline" onClick={() => fire(e)}>
            {e}
          </button>
        ))}
      </div>
      <ul aria-live="polite" className="event-log">
        {log.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: an append-only log
          <li key={i}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
