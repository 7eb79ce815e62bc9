import { MEASURED_SPEED, OUTPUT_SIZE } from './measured';

const FEATURES = [
  { title: 'Measured speed', text: MEASURED_SPEED.short },
  { title: 'Clean and symmetrical', text: 'Every product is levelled, centred and set on a clean background.' },
  { title: 'Made for marketplaces', text: OUTPUT_SIZE },
  { title: 'Any product', text: 'Clothing, accessories, shoes and detail close-ups.' },
];

export function FeatureCards() {
  return (
    <section className="section" aria-labelledby="features-title">
      <h2 id="features-title">Why sellers use Flatlay</h2>
      <div className="card-grid">
        {FEATURES.map((f) => (
          <article key={f.title} className="feature-card">
            <h3>{f.title}</h3>
            <p className="muted">{f.text}</p>
          </article>
        ))}
      </div>
    </section>
  );
}
