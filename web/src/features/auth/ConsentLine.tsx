import { Link } from 'react-router-dom';

/** Continuing is consent: to the policies, and to being at least 18 (required for an account). */
export function ConsentLine() {
  return (
    <p className="consent small muted">
      By continuing, you agree to our <Link to="/privacy">Privacy Policy</Link> and{' '}
      <Link to="/terms">Terms &amp; Conditions</Link>, and confirm that you are at least 18 years old.
    </p>
  );
}
