// Marketing pixels behind one module. Each pixel is on only when its id is configured (a <meta>
// tag the gateway fills, see ./runtime-config); with none configured nothing is loaded and
// nothing is sent. The gateway's Content Security Policy allows a pixel's origin only when
// its id is set, so a pixel cannot load where it is not configured. And nothing loads or is sent
// until the visitor accepts marketing cookies in the banner (./consent): events before that, or
// after a reject, are dropped, not queued.
import { marketingAllowed } from './consent';
import { loadWebConfig, metaPixelId, tiktokPixelId } from './runtime-config';

export type PixelEvent = 'Lead' | 'ViewContent' | 'InitiateCheckout' | 'Purchase' | 'CompleteRegistration';

export interface PixelData {
  value?: number;
  currency?: string;
  content_name?: string;
}

type Fbq = ((...args: unknown[]) => void) & { queue?: unknown[][]; loaded?: boolean };
type Ttq = { track: (event: string, data?: object) => void; page: () => void };

declare global {
  interface Window {
    fbq?: Fbq;
    ttq?: Ttq;
  }
}

/** TikTok names some standard events differently. */
const TIKTOK_EVENT: Record<PixelEvent, string> = {
  Lead: 'SubmitForm',
  ViewContent: 'ViewContent',
  InitiateCheckout: 'InitiateCheckout',
  Purchase: 'CompletePayment',
  CompleteRegistration: 'CompleteRegistration',
};

let started = false;

function addScript(src: string) {
  const s = document.createElement('script');
  s.async = true;
  s.src = src;
  document.head.appendChild(s);
}

/** Whether any pixel id is configured (once the deployment's settings are known). */
export const pixelsConfigured = (): boolean => Boolean(metaPixelId() || tiktokPixelId());

/** Loads the configured pixels once, after the visitor accepted; a no-op when none is configured. */
export function startPixels(): void {
  if (started || typeof document === 'undefined' || !marketingAllowed()) return;
  started = true;
  const meta = metaPixelId();
  if (meta) {
    // Calls made before the script arrives wait in a queue the script reads.
    const queue: unknown[][] = [];
    const fbq: Fbq = (...args: unknown[]) => {
      queue.push(args);
    };
    fbq.queue = queue;
    window.fbq = fbq;
    addScript('https://connect.facebook.net/en_US/fbevents.js');
    fbq('init', meta);
    fbq('track', 'PageView');
  }
  const tiktok = tiktokPixelId();
  if (tiktok) {
    const queue: unknown[][] = [];
    window.ttq = { track: (...a) => void queue.push(['track', ...a]), page: () => void queue.push(['page']) };
    addScript(`https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=${encodeURIComponent(tiktok)}&lib=ttq`);
    window.ttq.page();
  }
}

/** Starts the pixels once the deployment's settings are known, if the visitor has accepted. */
export function startPixelsWhenAllowed(): Promise<void> {
  if (!marketingAllowed()) return Promise.resolve();
  return loadWebConfig().then(() => startPixels());
}

/** Sends one event to every configured pixel; nothing at all when none is configured or not accepted. */
export function trackPixel(event: PixelEvent, data: PixelData = {}): void {
  if (typeof window === 'undefined' || !marketingAllowed()) return;
  // The ids come with the deployment's settings: wait for them (asked once per page load).
  void loadWebConfig().then(() => {
    if (!pixelsConfigured() || !marketingAllowed()) return;
    startPixels();
    if (metaPixelId()) window.fbq?.('track', event, data);
    if (tiktokPixelId()) window.ttq?.track(TIKTOK_EVENT[event], data);
  });
}
