import { HydrateApart } from '../components/HydrateApart';
import { EnhanceHero } from '../features/enhance/EnhanceHero';
import { FaqAccordion } from '../features/content/FaqAccordion';
import { FeatureCards } from '../features/content/FeatureCards';
import { HowItWorksSteps } from '../features/content/HowItWorksSteps';
import { IntroVideo } from '../features/content/IntroVideo';
import { PhotoTip } from '../features/content/PhotoTip';
import { Showcase } from '../features/content/Showcase';
import { PricingBlock } from '../features/pricing/PricingBlock';

export default function HomePage() {
  return (
    <>
      {/* Each section is hydrated in a task of its own (ADR 0719), those below the fold once near (ADR 0720). */}
      <HydrateApart name="hero">
        <section className="hero" aria-labelledby="hero-title">
          <div className="hero__intro">
            <h1 id="hero-title">Studio flat-lays from casual photos</h1>
            <p className="lead">
              Upload a photo of clothing, accessories, shoes or a detail. AI cleans, straightens and centres it into a
              marketplace-ready image.
            </p>
          </div>
          <EnhanceHero />
          <PhotoTip />
        </section>
      </HydrateApart>
      <HydrateApart name="steps">
        <HowItWorksSteps />
      </HydrateApart>
      <HydrateApart name="showcase">
        <Showcase />
      </HydrateApart>
      <HydrateApart name="features">
        <FeatureCards />
      </HydrateApart>
      <HydrateApart name="pricing">
        <PricingBlock />
      </HydrateApart>
      <HydrateApart name="faq">
        <FaqAccordion />
      </HydrateApart>
      <IntroVideo />
    </>
  );
}
