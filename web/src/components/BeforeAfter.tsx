import { type CSSProperties, useId, useState } from 'react';
import { ShowcasePicture } from '../features/content/ShowcasePicture';

/** An image by its address, or a showcase master by name (served as AVIF and WebP at several widths). */
export type BeforeAfterImage = string | { showcase: string; sizes: string };

function SideImage({
  image,
  alt,
  className,
  style,
}: {
  image: BeforeAfterImage;
  alt: string;
  className?: string;
  style?: CSSProperties;
}) {
  if (typeof image !== 'string')
    return <ShowcasePicture name={image.showcase} sizes={image.sizes} alt={alt} className={className} style={style} />;
  return (
    <img
      src={image}
      alt={alt}
      className={className}
      style={style}
      loading="lazy"
      decoding="async"
      width={480}
      height={480}
    />
  );
}

/**
 * A before/after comparison: the result drawn over the original, cut at a handle the person moves
 * with the pointer or the keyboard (a native range input, so it is labelled and focusable).
 */
export function BeforeAfter({
  before,
  after,
  label,
}: {
  before: BeforeAfterImage;
  after: BeforeAfterImage;
  label: string;
}) {
  const [split, setSplit] = useState(50);
  const id = useId();
  return (
    <div className="before-after">
      <SideImage image={before} alt={`${label}, before`} />
      <SideImage
        image={after}
        alt={`${label}, after`}
        className="before-after__after"
        style={{ clipPath: `inset(0 0 0 ${split}%)` }}
      />
      <span className="before-after__line" style={{ left: `${split}%` }} aria-hidden="true" />
      <label htmlFor={id} className="visually-hidden">
        Compare before and after: {label}
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={100}
        value={split}
        onChange={(e) => setSplit(Number(e.target.value))}
        className="before-after__range"
      />
    </div>
  );
}
