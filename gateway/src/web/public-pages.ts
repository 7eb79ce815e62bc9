// The web app's public pages, as search engines should see them (robots.txt, sitemap.xml).
// Routes themselves are the web app's (web/src/app); a test checks each of these answers the app.

/** Pages for everyone, listed in the sitemap. */
export const INDEXED_PAGES = ['/', '/pricing', '/faq', '/how-it-works', '/privacy', '/terms'] as const;

/** Paths crawlers are asked to leave alone: the API, sign-in, and what only a signed-in person sees. */
export const NOT_INDEXED = [
  '/api/',
  '/auth',
  '/dashboard',
  '/account',
  '/admin',
  '/settings',
  '/subscribe',
  '/checkout',
  '/subscription-checkout',
  '/tiktok-test',
] as const;
