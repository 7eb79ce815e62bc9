import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { afterLoad } from '../lib/after-load';
import { formatCount } from '../lib/format-count';
import { useTokenBalance } from '../api/queries';
import { useAuth } from '../auth/auth-context';
import { displayNameOf } from '../auth/session';
import type { IconLinkItem } from './IconLinkTooltips';
import { AccountIcon, DashboardIcon, Logo, TokenIcon } from './icons';

// The tooltips (Radix's, with its positioning library: about 19 KB) load once the page has loaded and
// the browser is idle where a mouse can hover (a fine pointer), or when the keyboard first reaches
// one of these links (ADR 0715, ADR 0719); until then the links are the same without. A phone (a
// coarse pointer, no hover) never shows them, so it never loads them: at start-up they cost a phone
// a long task for nothing. Not on a pointer's first contact: the links are new elements once the
// tooltips come, and a tap (pointer over, then click at once) lost its click.
const IconLinkTooltips = lazy(() => import('./IconLinkTooltips'));

/** Whether this device has a pointer that hovers (a mouse), the only one that shows a tooltip. */
const canHover = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(hover: hover) and (pointer: fine)').matches;

function IconLinks({ links }: { links: IconLinkItem[] }) {
  const [wanted, setWanted] = useState(false);
  // The link that had the keyboard's focus when the tooltips came: it keeps it (the links are new elements).
  const [focused, setFocused] = useState<string | undefined>();
  useEffect(() => (canHover() ? afterLoad(() => setWanted(true)) : undefined), []);
  const plain = links.map(({ to, label, icon }) => (
    <Link
      key={label}
      to={to}
      className="icon-button"
      aria-label={label}
      onFocus={() => {
        setFocused(label);
        setWanted(true);
      }}
    >
      {icon}
    </Link>
  ));
  if (!wanted) return plain;
  return (
    <Suspense fallback={plain}>
      <IconLinkTooltips links={links} focus={focused} />
    </Suspense>
  );
}

function TokenChip({ balance }: { balance: number }) {
  return (
    <Link to="/pricing" className="token-chip" title="Click to buy more tokens">
      <TokenIcon />
      <span>{formatCount(balance)}</span>
      <span className="visually-hidden"> tokens</span>
    </Link>
  );
}

export function Header() {
  const { authUser, profile, logout } = useAuth();
  const navigate = useNavigate();
  const balance = useTokenBalance({ enabled: Boolean(authUser) });
  const tokens = balance.data?.balance ?? profile?.tokenBalance ?? 0;

  const signOut = async () => {
    await logout();
    navigate('/auth');
  };

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link to="/" aria-label="Flatlay home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="site-nav">
          <Link to="/how-it-works">How it works</Link>
          <Link to="/dashboard">Dashboard</Link>
        </nav>
        <div className="site-header__account">
          {authUser && profile ? (
            <>
              {/* The account menu: the name opens /account (plan, Manage Billing, Cancel Subscription). */}
              <Link to="/account" className="site-header__name" title="My Account">
                <AccountIcon />
                {displayNameOf(profile)}
                <span className="visually-hidden">, My Account</span>
              </Link>
              <TokenChip balance={tokens} />
              <button type="button" className="button button--ghost site-header__signout" onClick={signOut}>
                Sign Out
              </button>
            </>
          ) : (
            <Link to="/auth" className="button button--primary site-header__account-button">
              Account
            </Link>
          )}
          <div className="site-header__mobile">
            <IconLinks
              links={[
                { to: '/dashboard', label: 'Dashboard', icon: <DashboardIcon /> },
                {
                  to: authUser ? '/account' : '/auth',
                  label: authUser ? 'My Account' : 'Account',
                  icon: <AccountIcon />,
                },
              ]}
            />
          </div>
        </div>
      </div>
    </header>
  );
}
