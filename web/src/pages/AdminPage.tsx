import { useQueryClient } from '@tanstack/react-query';
import { Spinner } from '../components/Spinner';
import { toast } from '../components/toast/toast-store';
import { useOverview, usePaidUserStats, useSignupStats } from '../features/admin/admin-queries';
import { clearAdminToken, useAdminToken } from '../features/admin/admin-session';
import { AdminLoginDialog } from '../features/admin/AdminLoginDialog';
import { GrowthCard } from '../features/admin/GrowthCard';
import { PlanDistribution } from '../features/admin/PlanDistribution';
import { SignupsTrend } from '../features/admin/SignupsTrend';
import { StatCards } from '../features/admin/StatCards';
import { UserManagement } from '../features/admin/UserManagement';
import '../features/admin/admin.css';

/** /admin: gated by the Admin Authentication dialog; every figure comes from the admin API. */
export default function AdminPage() {
  const token = useAdminToken();
  const signedIn = token !== null;
  const queryClient = useQueryClient();
  const signups = useSignupStats(signedIn);
  const paid = usePaidUserStats(signedIn);
  const overview = useOverview(signedIn);

  function logout() {
    clearAdminToken();
    queryClient.removeQueries({ queryKey: ['admin'] });
    toast({ title: 'Logged out', description: 'The admin session has ended' });
  }

  // The first answer with a stored token is the session check: a spinner until it comes.
  const checking = signedIn && signups.isPending && !signups.isError;

  return (
    <section className="page admin">
      <header className="admin__header">
        <div>
          <h1>Admin Dashboard</h1>
          <p className="muted">Sign-ups, paid users and every account.</p>
        </div>
        {signedIn && (
          <div className="admin__header-actions">
            <span className="badge badge--live">
              <span className="live-dot" aria-hidden="true" />
              Live Data
            </span>
            <button type="button" className="button button--outline" onClick={logout}>
              Logout
            </button>
          </div>
        )}
      </header>
      {!signedIn ? (
        <p className="notice">Sign in as an administrator to see the dashboard.</p>
      ) : checking ? (
        <Spinner label="Checking admin session" />
      ) : (
        <>
          <StatCards signups={signups.data} paid={paid.data} overview={overview.data} />
          <div className="admin__row">
            <GrowthCard overview={overview.data} />
            <PlanDistribution overview={overview.data} />
          </div>
          <SignupsTrend enabled={signedIn} />
          <UserManagement enabled={signedIn} />
        </>
      )}
      <AdminLoginDialog open={!signedIn} />
    </section>
  );
}
