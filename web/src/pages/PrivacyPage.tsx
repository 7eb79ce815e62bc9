export default function PrivacyPage() {
  return (
    <article className="page page--narrow legal">
      <h1>Privacy Policy</h1>
      <p className="muted">Last updated: 2025</p>
      <h2>What we collect</h2>
      <p>
        Your email address, your name and picture when you sign in with Google, the photos you upload and the images we
        produce from them, your token balance and purchases, and basic technical data (such as your browser and IP
        address) needed to run and protect the service.
      </p>
      <h2>How we use it</h2>
      <p>
        To create and run your account, enhance your images, process payments through our payment provider, answer
        support requests, and measure how our marketing performs.
      </p>
      <h2>Payments</h2>
      <p>Card payments are handled by our payment provider on its hosted checkout; we never see your card number.</p>
      <h2>Your images</h2>
      <p>Your photos and results are used only to provide the service to you. We do not sell them.</p>
      <h2>Cookies and tracking</h2>
      <p>
        We keep your session in your browser's storage. With your permission, given in the cookie banner, the Meta and
        TikTok marketing pixels record sign-up, content-view, checkout and purchase events; they do not load unless you
        accept. You can change your choice at any time under Cookie settings at the bottom of every page.
      </p>
      <h2>Age</h2>
      <p>You must be at least 18 years old to create an account. We record when you agreed and to which version.</p>
      <h2>Your rights</h2>
      <p>You can ask us for a copy of your data or to delete your account at any time by contacting support.</p>
    </article>
  );
}
