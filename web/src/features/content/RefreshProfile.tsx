import { useEffect } from 'react';
import { useAuth } from '../../auth/auth-context';

/** Pages that show the balance or plan ask for the profile again when opened by a signed-in person. */
export function useRefreshProfileOnVisit(): void {
  const { authUser, refreshProfile } = useAuth();
  const signedIn = Boolean(authUser);
  useEffect(() => {
    if (signedIn) void refreshProfile({ force: true });
  }, [signedIn, refreshProfile]);
}
