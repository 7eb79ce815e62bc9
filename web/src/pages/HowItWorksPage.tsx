import { Link } from 'react-router-dom';
import { HydrateApart } from '../components/HydrateApart';
import { HowItWorksSteps } from '../features/content/HowItWorksSteps';
import { MEASURED_SPEED } from '../features/content/measured';
import { PricingBlock } from '../features/pricing/PricingBlock';

const REASONS = [
  'No studio, lightbox or photographer needed',
  'Consistent, level, centred images across your whole catalogue',
  MEASURED_SPEED.short,
  'Pay per image with tokens that never expire, or subscribe',
];

export default function HowItWorksPage() {
  return (
    <div className="page">
      <h1>How it works</h1>
      <p className="lead">From a casual photo to a studio flat-lay in three steps.</p>
      <HydrateApart name="steps">
        <HowItWorksSteps />
      </HydrateApart>
      <section className="section" aria-labelledby="why-title">
        <h2 id="why-title">Why Flatlay</h2>
        <ul className="checklist">
          {REASONS.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      </section>
      <HydrateApart name="pricing">
        <PricingBlock />
      </HydrateApart>
      <p className="links-row">
        <Link to="/" className="button button--primary">
          Try it now
        </Link>
        <Link to="/faq" className="button button--outline">
          Read the FAQ
        </Link>
      </p>
    </div>
  );
}
