import { Link } from 'react-router-dom';
import { supportEmail, useWebConfig } from '../../lib/runtime-config';
import { MEASURED_SPEED } from './measured';

export const FAQ: { q: string; a: string }[] = [
  {
    q: 'What does Flatlay do?',
    a: 'It turns a casual photo of clothing, accessories, shoes or a detail close-up into a clean, symmetrical studio flat-lay image.',
  },
  {
    q: 'How long does an enhancement take?',
    a: MEASURED_SPEED.long,
  },
  {
    q: 'How do tokens work?',
    a: 'One image costs 100 tokens. New accounts get 200 free tokens, enough for 2 images.',
  },
  {
    q: 'Do token packs expire?',
    a: 'No. Token packs are one-time purchases that never expire and work with any plan.',
  },
  {
    q: 'Can I try it without an account?',
    a: 'Yes. Enter your email, upload a photo, and pay a one-off $5 to unlock the result.',
  },
  {
    q: 'Which file formats can I upload?',
    a: 'JPG, PNG, WEBP and HEIC photos, up to 10MB.',
  },
  {
    q: 'What do subscriptions add?',
    a: 'A monthly token allowance, advanced sub-type options, advanced prompting and priority support. Yearly billing saves 20%.',
  },
  {
    q: 'How do I get the best results?',
    a: 'Photograph clothing on a hanger, keep the full logo visible, and use a background colour different from the product.',
  },
];

/**
 * The questions as native disclosure widgets, one open at a time (`<details name>`): keyboard
 * operable, announced as expandable, and working before (and without) the app's JavaScript, which
 * matters for pages rendered at build time; Radix's accordion cost 4 KB of the home page's initial
 * JavaScript for the same (ADR 0715).
 */
export function FaqAccordion() {
  useWebConfig();
  return (
    <section className="section" aria-labelledby="faq-title">
      <h2 id="faq-title">Frequently asked questions</h2>
      <div className="faq">
        {FAQ.map((item) => (
          <details key={item.q} name="faq" className="faq__item">
            <summary className="faq__trigger">
              <h3 className="faq__heading">{item.q}</h3>
            </summary>
            <p className="faq__answer">{item.a}</p>
          </details>
        ))}
      </div>
      <div className="faq__actions">
        <Link to="/auth" className="button button--primary">
          Start Now
        </Link>
        <a href={`mailto:${supportEmail()}`} className="button button--outline">
          Contact Support
        </a>
      </div>
    </section>
  );
}
