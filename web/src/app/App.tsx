import { lazy, type ReactNode, Suspense } from 'react';
import { Outlet, Route, Routes } from 'react-router-dom';
import { CookieBanner } from '../components/CookieBanner';
import { Footer } from '../components/Footer';
import { Header } from '../components/Header';
import { HydrateApart } from '../components/HydrateApart';
import { Spinner } from '../components/Spinner';
import AuthPage from '../pages/AuthPage';
import FaqPage from '../pages/FaqPage';
import HomePage from '../pages/HomePage';
import HowItWorksPage from '../pages/HowItWorksPage';
import PricingPage from '../pages/PricingPage';
import PrivacyPage from '../pages/PrivacyPage';
import TermsPage from '../pages/TermsPage';
import { OutageReset } from './OutageReset';
import { RequireAuth } from './RequireAuth';
import { ScrollToTop } from './ScrollToTop';

// The public pages are imported eagerly: they are rendered to HTML at build time and hydrated
// (ADR 0714), so their code must be there when the app starts (a lazy one would suspend). Their own
// heavy parts load on demand, and the initial JavaScript of / has a budget that fails the build
// (web/build/initial-js-budget.ts, ADR 0715). Every other page is a chunk of its own, loaded when
// visited: the signed-in app, admin and the checkout pages never reach a public page's visitor.
const AuthCallbackPage = lazy(() => import('../pages/AuthCallbackPage'));
// The pages e-mailed links open, and the request for a reset link (ADR 0402).
const ForgotPasswordPage = lazy(() => import('../features/account-care/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../features/account-care/ResetPasswordPage'));
const VerifyEmailPage = lazy(() =>
  import('../features/account-care/LinkLandingPage').then((m) => ({ default: m.VerifyEmailPage })),
);
const ConfirmEmailPage = lazy(() =>
  import('../features/account-care/LinkLandingPage').then((m) => ({ default: m.ConfirmEmailPage })),
);
const DashboardPage = lazy(() => import('../pages/DashboardPage'));
const CheckoutPage = lazy(() => import('../pages/CheckoutPage'));
const FuturisticPage = lazy(() => import('../pages/FuturisticPage'));
const PixelTestPage = lazy(() => import('../pages/PixelTestPage'));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage'));
// Operator and account pages: their chunks (the chart library among them) load only when visited.
const AdminPage = lazy(() => import('../pages/AdminPage'));
const AccountPage = lazy(() => import('../pages/AccountPage'));
const SettingsPage = lazy(() => import('../pages/SettingsPage'));
const SubscribePage = lazy(() => import('../pages/SubscribePage'));
const SubscriptionCheckoutPage = lazy(() => import('../pages/SubscriptionCheckoutPage'));

/** A public page whose content is one element, hydrated as a part of its own (ADR 0719). */
const apart = (page: ReactNode) => <HydrateApart name="page">{page}</HydrateApart>;

function Layout() {
  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      {/* A prerendered page is hydrated in parts, each in a task of its own (ADR 0719). */}
      <HydrateApart name="header">
        <Header />
      </HydrateApart>
      <main id="main" className="app__main">
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
      <HydrateApart name="footer">
        <Footer />
      </HydrateApart>
      <CookieBanner />
    </div>
  );
}

export function App() {
  return (
    <>
      <ScrollToTop />
      <OutageReset />
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<HomePage />} />
          <Route path="auth" element={apart(<AuthPage />)} />
          <Route path="auth/callback" element={<AuthCallbackPage />} />
          <Route path="auth/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="auth/reset-password" element={<ResetPasswordPage />} />
          <Route path="auth/verify-email" element={<VerifyEmailPage />} />
          <Route path="auth/confirm-email" element={<ConfirmEmailPage />} />
          <Route
            path="dashboard"
            element={
              <RequireAuth>
                <DashboardPage />
              </RequireAuth>
            }
          />
          <Route path="pricing" element={apart(<PricingPage />)} />
          <Route
            path="checkout"
            element={
              <RequireAuth>
                <CheckoutPage />
              </RequireAuth>
            }
          />
          <Route path="faq" element={apart(<FaqPage />)} />
          <Route path="how-it-works" element={apart(<HowItWorksPage />)} />
          <Route path="privacy" element={apart(<PrivacyPage />)} />
          <Route path="terms" element={apart(<TermsPage />)} />
          <Route path="futuristic" element={<FuturisticPage />} />
          <Route path="tiktok-test" element={<PixelTestPage />} />
          <Route path="admin" element={<AdminPage />} />
          {/* The operator settings use the admin session, not the customer's (ADR 0711). */}
          <Route path="settings" element={<SettingsPage />} />
          <Route
            path="account"
            element={
              <RequireAuth>
                <AccountPage />
              </RequireAuth>
            }
          />
          {/* /subscribe signs a visitor in on the page itself. */}
          <Route path="subscribe" element={<SubscribePage />} />
          <Route
            path="subscription-checkout"
            element={
              <RequireAuth>
                <SubscriptionCheckoutPage />
              </RequireAuth>
            }
          />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </>
  );
}
