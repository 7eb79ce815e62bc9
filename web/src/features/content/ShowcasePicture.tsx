import type { CSSProperties } from 'react';
import { SHOWCASE_FORMATS, SHOWCASE_SIZE, showcaseSrcSet, showcaseUrl } from './showcase-images';

export interface ShowcasePictureProps {
  /** The master's name, as in showcase-pairs.json: `01-after`. */
  name: string;
  alt: string;
  sizes: string;
  className?: string;
  style?: CSSProperties;
  /** Lazy unless the image is above the fold. */
  loading?: 'lazy' | 'eager';
}

/**
 * One showcase image: AVIF, then WebP, each at every width the build makes, with the intrinsic
 * size given (so nothing moves when it arrives); the <img> is what older browsers show and what
 * styles and tests address.
 */
export function ShowcasePicture({ name, alt, sizes, className, style, loading = 'lazy' }: ShowcasePictureProps) {
  return (
    <picture>
      {SHOWCASE_FORMATS.map((format) => (
        <source key={format} type={`image/${format}`} srcSet={showcaseSrcSet(name, format)} sizes={sizes} />
      ))}
      <img
        src={showcaseUrl(name, SHOWCASE_SIZE, 'webp')}
        alt={alt}
        className={className}
        style={style}
        width={SHOWCASE_SIZE}
        height={SHOWCASE_SIZE}
        loading={loading}
        decoding="async"
      />
    </picture>
  );
}
