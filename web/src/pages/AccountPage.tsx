import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError } from '../api/http';
import { useAuth } from '../auth/auth-context';
import { Spinner } from '../components/Spinner';
import { errorToast, toast } from '../components/toast/toast-store';
import {
  cancelSubscription,
  fetchSubscriptionStatus,
  openBillingPortal,
  subscriptionKey,
} from '../features/account/billing-api';
import { CancelSubscriptionDialog } from '../features/account/CancelSubscriptionDialog';
import { AccountSecurity, VerifyEmailNotice } from '../features/account-care/AccountSecurity';
import { DeleteAccount } from '../features/account-care/DeleteAccount';
import { ExportData } from '../features/account-care/ExportData';
import { planTitle, subscriptionView } from '../features/account/subscription';
import { useRefreshProfileOnVisit } from '../features/content/RefreshProfile';
import { navigateAway } from '../lib/navigate-away';
import '../features/admin/admin.css';
import { formatCount } from '../lib/format-count';

const messageOf = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

/** /account: who you are, your tokens and your plan, with billing and cancellation. */
export default function AccountPage() {
  useRefreshProfileOnVisit();
  const { profile, authUser } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const status = useQuery({ queryKey: subscriptionKey, queryFn: ({ signal }) => fetchSubscriptionStatus(signal) });

  // The session failed its check on this page: sign in again and come back here.
  useEffect(() => {
    if (status.error instanceof ApiError && status.error.status === 401) {
      errorToast('Authentication Required', 'Please sign in again to view your account.');
      navigate('/auth?redirect=account', { replace: true });
    }
  }, [status.error, navigate]);

  const portal = useMutation({
    mutationFn: openBillingPortal,
    onSuccess: (answer) => {
      if (answer?.url) navigateAway(answer.url);
      else errorToast('Failed to Open Billing Portal', 'The billing portal did not answer with an address.');
    },
    onError: (error) => errorToast('Failed to Open Billing Portal', messageOf(error, 'Please try again.')),
  });

  const cancel = useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (answer) => {
      setConfirming(false);
      toast({
        title: 'Subscription Cancelled',
        description: answer?.message || 'Your plan stays active until the end of the billing period.',
      });
      void queryClient.invalidateQueries({ queryKey: subscriptionKey });
    },
    onError: (error) => errorToast('Failed to Cancel', messageOf(error, 'Please try again.')),
  });

  const sub = status.data;
  const view = sub?.hasSubscription ? subscriptionView(sub) : null;
  const name = profile?.name || profile?.firstName || authUser?.email.split('@')[0] || '';

  return (
    <section className="page account">
      <h1>My Account</h1>
      <VerifyEmailNotice />
      <div className="account__grid">
        <article className="card" aria-labelledby="profile-title">
          <h2 id="profile-title">Profile</h2>
          <dl className="figures">
            <dt>Email</dt>
            <dd>{profile?.email ?? authUser?.email}</dd>
            <dt>Name</dt>
            <dd>{name}</dd>
            <dt>Token Balance</dt>
            <dd data-testid="token-balance">
              {profile ? (profile.isUnlimited ? 'Unlimited' : formatCount(profile.tokenBalance)) : '—'}
            </dd>
          </dl>
        </article>
        <article className="card" aria-labelledby="subscription-title">
          <h2 id="subscription-title">Subscription</h2>
          {status.isPending ? (
            <Spinner label="Loading your subscription" />
          ) : status.isError ? (
            <div role="alert">
              <p className="error-text">Could not load your subscription.</p>
              <p className="small muted">{messageOf(status.error, 'Please try again.')}</p>
              <button type="button" className="button button--outline" onClick={() => void status.refetch()}>
                Retry
              </button>
            </div>
          ) : view && sub ? (
            <>
              <p className="account__plan">
                <strong>{profile?.subscriptionPlanName || planTitle(sub.subscriptionPlan)}</strong>{' '}
                <span className={`status-badge status-badge--${view.badge}`}>{view.badgeLabel}</span>
              </p>
              <dl className="figures">
                <dt>{view.dateLabel}</dt>
                <dd>{view.date}</dd>
              </dl>
              <div className="links-row account__actions">
                {view.canManageBilling && (
                  <button
                    type="button"
                    className="button button--outline"
                    disabled={portal.isPending}
                    onClick={() => portal.mutate()}
                  >
                    {portal.isPending ? 'Opening…' : 'Manage Billing'}
                  </button>
                )}
                {view.canCancel && (
                  <button
                    type="button"
                    className="button button--ghost button--danger-text"
                    onClick={() => setConfirming(true)}
                  >
                    Cancel Subscription
                  </button>
                )}
              </div>
            </>
          ) : (
            <>
              <p className="muted">You have no subscription. A plan gives you fresh tokens every month.</p>
              <Link to="/subscribe" className="button button--primary">
                View Plans
              </Link>
            </>
          )}
        </article>
        <AccountSecurity />
        <ExportData />
        <DeleteAccount />
      </div>
      <nav className="links-row" aria-label="Account shortcuts">
        <Link to="/pricing" className="button button--outline">
          View Pricing
        </Link>
        <Link to="/dashboard" className="button button--outline">
          Dashboard
        </Link>
        <Link to="/checkout" className="button button--primary">
          Buy Token Packs
        </Link>
      </nav>
      <CancelSubscriptionDialog
        open={confirming}
        endsOn={view?.date ?? 'N/A'}
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onOpenChange={setConfirming}
      />
    </section>
  );
}
