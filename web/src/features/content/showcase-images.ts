// The showcase's images as the build makes them (web/build/showcase-images.ts) from the masters in
// web/showcase/ (scripts/showcase.mjs): each in AVIF and WebP, at each of these widths, square.
// One module for the names, so the build, the components and a page's <head> agree (ADR 0715).

/** The masters' size (square), and so each image's intrinsic width and height. */
export const SHOWCASE_SIZE = 480;
/** The widths made of each image; the browser picks one by `sizes` and the screen's density. */
export const SHOWCASE_WIDTHS = [240, 480] as const;
/** Best first: a <picture> lists its sources in this order. */
export const SHOWCASE_FORMATS = ['avif', 'webp'] as const;
export type ShowcaseFormat = (typeof SHOWCASE_FORMATS)[number];

/** Where one image of one master is served: `/showcase/01-after-480.avif`. */
export const showcaseUrl = (name: string, width: number, format: ShowcaseFormat): string =>
  `/showcase/${name}-${width}.${format}`;

/** The `srcset` of one master in one format. */
export const showcaseSrcSet = (name: string, format: ShowcaseFormat): string =>
  SHOWCASE_WIDTHS.map((w) => `${showcaseUrl(name, w, format)} ${w}w`).join(', ');

/** A showcase card's width: the whole column on a phone, a grid cell (at most about 300 px) above. */
export const SHOWCASE_CARD_SIZES = '(max-width: 488px) calc(100vw - 2rem), 300px';

/**
 * The `<link rel=preload as=image>` attributes for one master, for a page whose largest image above
 * the fold it is (the build's prerendered <head> may use it). The home page's hero has no image
 * today, so no page preloads one: the showcase is below the fold and loads lazily.
 */
export function showcasePreload(name: string, sizes: string): Record<string, string> {
  return {
    rel: 'preload',
    as: 'image',
    type: 'image/avif',
    imagesrcset: showcaseSrcSet(name, 'avif'),
    imagesizes: sizes,
    fetchpriority: 'high',
  };
}
