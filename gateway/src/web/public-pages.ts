// The web app's public pages: the one list the build prerenders (web/build/prerender.ts writes each
// page's HTML with these titles and descriptions), the gateway serves (serve-web-app.ts) and
// crawlers are told about (robots.txt, sitemap.xml). ADR 0714. Plain data: the web build imports it.
// Routes themselves are the web app's (web/src/app); a test checks each of these answers the app.

export interface PublicPage {
  path: string;
  /** The document's title, also its Open Graph title. */
  title: string;
  /** The meta description, also its Open Graph description. */
  description: string;
  /** false: `noindex` (sign-in is public but no search result). */
  indexed: boolean;
  /** The schema.org Product with the catalogue's Offers (the gateway adds it from billing's prices). */
  offers?: boolean;
}

export const PUBLIC_PAGES: readonly PublicPage[] = [
  {
    path: '/',
    title: 'Flatlay: studio flat-lays from casual photos',
    description:
      'Turn casual photos of clothing, accessories, shoes and details into clean, centred studio flat-lay product images with AI.',
    indexed: true,
    offers: true,
  },
  {
    path: '/pricing',
    title: 'Pricing: plans and token packs | Flatlay',
    description:
      'Flatlay pricing: 200 free tokens at sign-up, monthly or yearly plans, and token packs that never expire. 100 tokens make one image.',
    indexed: true,
    offers: true,
  },
  {
    path: '/faq',
    title: 'FAQ | Flatlay',
    description:
      'Answers about Flatlay: what it does, how long an enhancement takes, how tokens work, file formats and trying it without an account.',
    indexed: true,
  },
  {
    path: '/how-it-works',
    title: 'How it works | Flatlay',
    description:
      'From a casual photo to a studio flat-lay in three steps: import or take a photo, AI cleans and aligns it, download the result.',
    indexed: true,
  },
  {
    path: '/privacy',
    title: 'Privacy Policy | Flatlay',
    description: 'What Flatlay collects, how it is used, payments, your images, cookies and tracking, and your rights.',
    indexed: true,
  },
  {
    path: '/terms',
    title: 'Terms & Conditions | Flatlay',
    description: 'The terms of using Flatlay: accounts, tokens, subscriptions, payments and your images.',
    indexed: true,
  },
  {
    path: '/auth',
    title: 'Sign in or sign up | Flatlay',
    description: 'Sign in to Flatlay or create an account with 200 free tokens.',
    indexed: false,
  },
];

/** Pages for everyone, listed in the sitemap. */
export const INDEXED_PAGES: readonly string[] = PUBLIC_PAGES.filter((p) => p.indexed).map((p) => p.path);

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

/**
 * Stands for the site's origin in the prerendered files (canonical, og:url, og:image): one build
 * serves every deployment, so the gateway writes the real one in when it sends a page. `.invalid`
 * is reserved (RFC 2606): a file sent as it is names no real site.
 */
export const ORIGIN_PLACEHOLDER = 'https://flatlay-origin.invalid';

/** Where the build writes a page's HTML, relative to web/dist (the SPA shell keeps index.html). */
export const prerenderedFile = (path: string): string =>
  path === '/' ? 'prerendered/index.html' : `prerendered${path}/index.html`;

/** The picture a shared link shows (a flat-lay of the showcase, in web/public). */
export const SHARE_IMAGE = '/showcase/01-after.webp';
