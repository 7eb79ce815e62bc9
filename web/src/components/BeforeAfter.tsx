import { useId, useState } from 'react';

/**
 * A before/after comparison: the result drawn over the original, cut at a handle the person moves
 * with the pointer or the keyboard (a native range input, so it is labelled and focusable).
 */
export function BeforeAfter({ before, after, label }: { before: string; after: string; label: string }) {
  const [split, setSplit] = useState(50);
  const id = useId();
  return (
    <div className="before-after">
      <img src={before} alt={`${label}, before`} loading="lazy" decoding="async" width={480} height={480} />
      <img
        src={after}
        alt={`${label}, after`}
        className="before-after__after"
        style={{ clipPath: `inset(0 0 0 ${split}%)` }}
        loading="lazy"
        decoding="async"
        width={480}
        height={480}
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
