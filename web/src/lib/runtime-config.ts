// Settings the page learns at run time, so one built app serves every deployment: the gateway's
// GET /api/config (Google client id, support address, pixel ids), asked once per page load.
// Until it answers (or when it cannot), the <meta> tags of index.html and the build's VITE_*
// variables stand in; the server's answer wins.
import { useEffect, useState } from 'react';
import { typedClient } from '../api/client';
import type { JsonAnswer } from '../api/schema';

type ServerConfig = JsonAnswer<'getConfig', 200>;

// Without the app's answer rules: this read happens before anything else and its failure only
// leaves the fallbacks (an outage here must not reset the app or sign anyone out).
const configApi = typedClient(null, {});

let fromServer: ServerConfig | null = null;
let loading: Promise<ServerConfig | null> | null = null;

function meta(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const value = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim();
  return value ? value : null;
}

/** Asks the gateway once; later calls share the answer. A failure leaves the local fallbacks. */
export function loadWebConfig(): Promise<ServerConfig | null> {
  loading ??= configApi
    .GET('/config', { headers: { Accept: 'application/json' } })
    .then(({ data, response }) => (response.ok ? (data ?? null) : null))
    .then((c) => {
      fromServer = c;
      return c;
    })
    .catch(() => null);
  return loading;
}

/** Re-renders the caller once the server's settings have arrived; true when they have. */
export function useWebConfig(): boolean {
  const [loaded, setLoaded] = useState(fromServer !== null);
  useEffect(() => {
    let live = true;
    void loadWebConfig().then((c) => live && setLoaded(c !== null));
    return () => {
      live = false;
    };
  }, []);
  return loaded;
}

/** Google sign-in is offered only when a client id is configured. */
export function googleClientId(): string | null {
  if (fromServer) return fromServer.google_client_id;
  return meta('flatlay:google-client-id') ?? (import.meta.env.VITE_GOOGLE_CLIENT_ID as string | undefined) ?? null;
}

export const DEFAULT_SUPPORT_EMAIL = 'support@flatlay.app';

export function supportEmail(): string {
  return (
    fromServer?.support_email ??
    meta('flatlay:support-email') ??
    (import.meta.env.VITE_SUPPORT_EMAIL as string | undefined) ??
    DEFAULT_SUPPORT_EMAIL
  );
}

/** Marketing pixels: each is loaded only when its id is configured (see ./pixels). */
export const metaPixelId = (): string | null => (fromServer ? fromServer.pixels.meta : meta('flatlay:meta-pixel-id'));
export const tiktokPixelId = (): string | null =>
  fromServer ? fromServer.pixels.tiktok : meta('flatlay:tiktok-pixel-id');
