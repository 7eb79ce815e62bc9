import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { Spinner } from '../components/Spinner';

/** Pages for signed-in people: a spinner while the session is restored, then the page or /auth. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { authUser, loading } = useAuth();
  const location = useLocation();
  if (loading) return <Spinner label="Checking your session" />;
  if (!authUser) return <Navigate to="/auth" replace state={{ from: location.pathname + location.search }} />;
  return children;
}
