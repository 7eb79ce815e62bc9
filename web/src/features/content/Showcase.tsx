import { BeforeAfter } from '../../components/BeforeAfter';
import pairs from './showcase-pairs.json';
import { SHOWCASE_CARD_SIZES } from './showcase-images';
import { ShowcaseLoop } from './ShowcaseLoop';

/**
 * Ten before/after pairs: real outputs of this product's engine from CC0 and CC BY photos
 * (scripts/showcase.mjs makes them; credits here and in NOTICE).
 */
export function Showcase() {
  return (
    <section className="section" aria-labelledby="showcase-title">
      <h2 id="showcase-title">Before and after</h2>
      <p className="muted">Casual photos in, studio flat-lays out: made by Flatlay's own engine.</p>
      <ShowcaseLoop />
      <ul className="showcase">
        {pairs.map((p) => (
          <li key={p.after} className="showcase__item">
            <BeforeAfter
              before={{ showcase: p.before, sizes: SHOWCASE_CARD_SIZES }}
              after={{ showcase: p.after, sizes: SHOWCASE_CARD_SIZES }}
              label={p.what}
            />
            <p className="small muted">
              {p.what}. Photo: {p.credit}.
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
