// Settings the page learns at run time. The gateway has no config endpoint yet; it (or the build)
// can fill these <meta> tags in index.html, so one built app serves every deployment.

function meta(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const value = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim();
  return value ? value : null;
}

/** Google sign-in is offered only when a client id is configured. */
export function googleClientId(): string | null {
  return meta('flatlay:google-client-id') ?? (import.meta.env.VITE_GOOGLE_CLIENT_ID as string | undefined) ?? null;
}

export const DEFAULT_SUPPORT_EMAIL = 'support@flatlay.app';

export function supportEmail(): string {
  return (
    meta('flatlay:support-email') ?? (import.meta.env.VITE_SUPPORT_EMAIL as string | undefined) ?? DEFAULT_SUPPORT_EMAIL
  );
}

/** Marketing pixels: each is loaded only when its id is configured (see ./pixels). */
export const metaPixelId = (): string | null => meta('flatlay:meta-pixel-id');
export const tiktokPixelId = (): string | null => meta('flatlay:tiktok-pixel-id');
