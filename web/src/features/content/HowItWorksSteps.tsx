const STEPS = [
  { title: 'Import or take an image', text: 'Upload a photo from your computer or take one with your phone.' },
  { title: 'AI cleans and aligns', text: 'The background goes, the product is straightened, centred and levelled.' },
  { title: 'Download', text: 'Get a clean studio flat-lay, ready for your store or marketplace.' },
];

export function HowItWorksSteps() {
  return (
    <section className="section" aria-labelledby="how-title">
      <h2 id="how-title">How it works</h2>
      <ol className="steps">
        {STEPS.map((s, i) => (
          <li key={s.title} className="step">
            <span className="step__number" aria-hidden="true">
              {i + 1}
            </span>
            <h3>{s.title}</h3>
            <p className="muted">{s.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
