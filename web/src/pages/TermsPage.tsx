export default function TermsPage() {
  return (
    <article className="page page--narrow legal">
      <h1>Terms &amp; Conditions</h1>
      <p className="muted">Last updated: 2025</p>
      <h2>The service</h2>
      <p>
        Flatlay enhances product photos into studio flat-lay images using AI. You must be at least 18 years old to
        create an account.
      </p>
      <h2>Tokens</h2>
      <p>
        One image costs 100 tokens. New accounts receive 200 free tokens. Token packs are one-time purchases; token
        packs never expire and work with any plan.
      </p>
      <h2>Subscriptions</h2>
      <p>
        Subscription fees are billed monthly and are non-refundable. You can cancel at any time; your plan stays active
        until the end of the period you paid for.
      </p>
      <h2>Price changes</h2>
      <p>We will give you 30 days' notice of any change to our prices.</p>
      <h2>Your content</h2>
      <p>
        You keep the rights to the photos you upload and confirm you have the right to use them. You may use the images
        you unlock for any lawful purpose.
      </p>
      <h2>Acceptable use</h2>
      <p>
        Do not upload unlawful content or content you have no right to use, and do not misuse or overload the service.
      </p>
    </article>
  );
}
