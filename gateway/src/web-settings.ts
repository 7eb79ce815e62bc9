// What the web app needs to know about this deployment (the Google client id for its sign-in
// button, the support address, the marketing pixel ids), and the Content Security Policy that
// allows exactly the third-party origins those settings switch on and nothing else.
import { z } from 'zod';
import { loadConfig } from '@flatlay/platform';
import { route, type ApiRoute } from './api/route.js';

// loadConfig reads an empty variable as unset.
export const webSettingsEnvSchema = z.object({
  // The same client id the identity service verifies Google ID tokens against.
  GOOGLE_CLIENT_ID: z.string().trim().min(1).optional().meta({
    description:
      "the gateway hands it to the web app's Google sign-in button (`GET /api/config`) and then allows Google's sign-in origins in its CSP",
    default: 'unset: `/api/auth/google` answers 501 (not configured)',
  }),
  SUPPORT_EMAIL: z.email().optional().meta({
    description: "the address of the web app's Contact Support link (served at `GET /api/config`)",
    default: 'unset: `support@flatlay.app` in the web app',
  }),
  META_PIXEL_ID: z.string().regex(/^\d+$/, 'must be digits').optional().meta({
    description:
      "Meta pixel id the web app loads (Lead, ViewContent, InitiateCheckout, Purchase, sign-up); adds its origins to the gateway's Content Security Policy (docs/decisions/0704-web-config-and-csp.md)",
    default: 'unset: no pixel is loaded and the CSP allows none of its origins',
  }),
  // The same variable identity and billing read: one public address for the whole product.
  PUBLIC_BASE_URL: z.url().optional().meta({
    description:
      "gateway: the public pages' canonical link, `og:url` and `og:image`, robots.txt's and sitemap.xml's addresses name its origin (docs/decisions/0714-prerendered-public-pages.md)",
    default:
      "gateway: unset: the request's origin (behind an ingress, `TRUST_PROXY` makes it the public one); identity and billing: `http://localhost:$PORT` (embedded), `http://localhost:8080` (as their own process)",
  }),
  TIKTOK_PIXEL_ID: z
    .string()
    .regex(/^[A-Z0-9]+$/, 'must be capital letters and digits')
    .optional()
    .meta({
      description:
        "TikTok pixel id the web app loads (the same events); adds its origins to the gateway's Content Security Policy (docs/decisions/0704-web-config-and-csp.md)",
      default: 'unset: no pixel is loaded and the CSP allows none of its origins',
    }),
});

export interface WebSettings {
  googleClientId?: string;
  supportEmail?: string;
  metaPixelId?: string;
  tiktokPixelId?: string;
  /** The site's public address: the public pages' canonical and shared links. */
  publicBaseUrl?: string;
}

export function webSettingsFromEnv(source: NodeJS.ProcessEnv = process.env): WebSettings {
  const c = loadConfig(webSettingsEnvSchema, source);
  return {
    googleClientId: c.GOOGLE_CLIENT_ID,
    supportEmail: c.SUPPORT_EMAIL,
    metaPixelId: c.META_PIXEL_ID,
    tiktokPixelId: c.TIKTOK_PIXEL_ID,
    publicBaseUrl: c.PUBLIC_BASE_URL,
  };
}

type Origins = Record<string, string[]>;

/** Third-party origins per feature, by directive; a feature's are allowed only when it is configured. */
const GOOGLE: Origins = {
  'script-src': ['https://accounts.google.com/gsi/client'],
  'frame-src': ['https://accounts.google.com/gsi/'],
  'connect-src': ['https://accounts.google.com/gsi/'],
  'style-src': ['https://accounts.google.com/gsi/style'],
};
const META_PIXEL: Origins = {
  'script-src': ['https://connect.facebook.net'],
  'img-src': ['https://www.facebook.com'],
  'connect-src': ['https://www.facebook.com'],
};
const TIKTOK_PIXEL: Origins = {
  'script-src': ['https://analytics.tiktok.com'],
  'img-src': ['https://analytics.tiktok.com'],
  'connect-src': ['https://analytics.tiktok.com'],
};

/** helmet's CSP directives: same-origin by default, plus the origins of the configured features. */
export function contentSecurityPolicy(settings: WebSettings): Record<string, string[]> {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'connect-src': ["'self'"],
    'frame-src': ["'none'"],
    // helmet's default would allow fonts from any https: origin; the app ships its own (none).
    'font-src': ["'self'", 'data:'],
  };
  const features: Origins[] = [];
  if (settings.googleClientId) features.push(GOOGLE);
  if (settings.metaPixelId) features.push(META_PIXEL);
  if (settings.tiktokPixelId) features.push(TIKTOK_PIXEL);
  for (const feature of features)
    for (const [directive, origins] of Object.entries(feature)) {
      const list = directives[directive]!.filter((v) => v !== "'none'");
      directives[directive] = [...new Set([...list, ...origins])];
    }
  return directives;
}

const WebConfigBody = z.object({
  google_client_id: z.string().nullable().meta({ description: 'Google sign-in is offered only when set' }),
  support_email: z.string().nullable(),
  pixels: z.object({
    meta: z.string().nullable().meta({ description: 'Meta (Facebook) pixel id; no pixel when null' }),
    tiktok: z.string().nullable().meta({ description: 'TikTok pixel id; no pixel when null' }),
  }),
});

export function webConfigRoutes(settings: WebSettings = webSettingsFromEnv()): ApiRoute[] {
  return [
    route({
      method: 'get',
      path: '/config',
      tags: ['meta'],
      access: 'none',
      summary: "The web app's settings for this deployment (Google client id, support address, pixel ids)",
      description:
        'Public values only: what a browser needs to offer Google sign-in and load the configured pixels. Unset values are null, and the Content Security Policy then allows none of their origins.',
      responses: {
        200: {
          description: 'The settings',
          schema: WebConfigBody,
          example: {
            google_client_id: '1234-abc.apps.googleusercontent.com',
            support_email: 'support@example.com',
            pixels: { meta: null, tiktok: null },
          },
        },
      },
      handle(_req, res) {
        res.setHeader('Cache-Control', 'public, max-age=300');
        res.json({
          google_client_id: settings.googleClientId ?? null,
          support_email: settings.supportEmail ?? null,
          pixels: { meta: settings.metaPixelId ?? null, tiktok: settings.tiktokPixelId ?? null },
        });
      },
    }),
  ];
}
