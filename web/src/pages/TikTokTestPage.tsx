import { useState } from 'react';

const EVENTS = ['Lead', 'ViewContent', 'InitiateCheckout', 'CompletePayment'] as const;

declare global {
  interface Window {
    ttq?: { track: (event: string, data?: Record<string, unknown>) => void };
  }
}

/** A page for checking the advertising pixel: fires each tracked event by hand and says whether a pixel heard it. */
export default function TikTokTestPage() {
  const [log, setLog] = useState<string[]>([]);
  const fire = (event: string) => {
    const pixel = window.ttq;
    pixel?.track(event, { value: 0, currency: 'USD' });
    setLog((l) => [`${event}: ${pixel ? 'sent to the pixel' : 'no pixel loaded on this page'}`, ...l]);
  };
  return (
    <div className="page page--narrow">
      <h1>Tracking test</h1>
      <p className="muted">Fire each marketing event once and check it arrives in the ads manager.</p>
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
