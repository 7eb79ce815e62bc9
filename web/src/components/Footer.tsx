import { Link } from 'react-router-dom';
import { openCookieSettings } from '../lib/consent';
import { Logo } from './icons';

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div>
          <Logo />
          <p className="site-footer__blurb">
            Flatlay turns casual photos of clothing, accessories, shoes and details into clean, symmetrical studio
            flat-lay product images with AI.
          </p>
        </div>
        <nav aria-label="Footer" className="site-footer__links">
          <Link to="/faq">FAQ</Link>
          <Link to="/privacy">Privacy Policy</Link>
          <Link to="/terms">Terms &amp; Conditions</Link>
          <button type="button" className="link-button" onClick={openCookieSettings}>
            Cookie settings
          </button>
        </nav>
      </div>
      <p className="site-footer__copyright">© 2025 Flatlay. All rights reserved.</p>
    </footer>
  );
}
