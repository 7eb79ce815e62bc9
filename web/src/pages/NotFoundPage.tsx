import { Link } from 'react-router-dom';

export default function NotFoundPage() {
  return (
    <section className="page page--center">
      <p className="eyebrow">404</p>
      <h1>Page Not Found</h1>
      <p>The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="button button--primary">
        Go Home
      </Link>
    </section>
  );
}
