import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import * as api from '../api/endpoints';
import { setUnauthorizedHandler } from '../api/http';
import type { Session, UserProfile } from '../api/schema';
import { toast } from '../components/toast/toast-store';
import { clearAuthToken, readAuthToken, storeAuthToken } from '../lib/storage';
import { type AuthApi, AuthContext, type AuthState } from './auth-context';
import { signOutOfGoogle } from './google-identity';
import { pendingUnlockToast, retryPendingTokenUnlock } from './pending-unlock';
import { initialiseSession, isProfileFresh, sleep } from './session';

const signedOut: AuthState = {
  authUser: null,
  loading: false,
  profile: null,
  profileLoading: false,
  profileError: null,
  lastFetched: null,
};

const signedInAs = (profile: UserProfile): AuthState => ({
  authUser: { id: profile.id, email: profile.email },
  loading: false,
  profile,
  profileLoading: false,
  profileError: null,
  lastFetched: Date.now(),
});

export interface AuthProviderProps {
  children: ReactNode;
  /** Tests replace the wait between attempts. */
  wait?: (ms: number) => Promise<void>;
}

export function AuthProvider({ children, wait = sleep }: AuthProviderProps) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>({ ...signedOut, loading: true });
  const stateRef = useRef(state);
  stateRef.current = state;

  const forceLogout = useCallback(() => {
    signOutOfGoogle();
    clearAuthToken();
    queryClient.clear();
    setState(signedOut);
  }, [queryClient]);

  const tryPendingUnlock = useCallback(async () => {
    const outcome = await retryPendingTokenUnlock(api.unlockAnonymousWithTokens);
    const told = pendingUnlockToast(outcome);
    if (told) toast(told);
    if (outcome === 'unlocked') await queryClient.invalidateQueries();
  }, [queryClient]);

  const initialise = useCallback(
    async (signal?: AbortSignal) => {
      const now = stateRef.current;
      if (now.authUser && now.profile && isProfileFresh(now.lastFetched, Date.now())) {
        setState((s) => ({ ...s, loading: false }));
        return;
      }
      setState((s) => ({ ...s, loading: true }));
      const profile = await initialiseSession({
        readToken: readAuthToken,
        removeToken: clearAuthToken,
        fetchProfile: api.fetchProfile,
        sleep: wait,
        signal,
      });
      if (signal?.aborted) return;
      setState(profile ? signedInAs(profile) : signedOut);
      if (profile) void tryPendingUnlock();
    },
    [wait, tryPendingUnlock],
  );

  useEffect(() => {
    setUnauthorizedHandler(() => {
      if (stateRef.current.authUser || readAuthToken()) forceLogout();
    });
    // the restore stops when the provider goes: no request after it unmounted
    const restoring = new AbortController();
    void initialise(restoring.signal);
    return () => {
      restoring.abort();
      setUnauthorizedHandler(null);
    };
  }, [initialise, forceLogout]);

  const completeSignIn = useCallback(
    async (session: Session) => {
      storeAuthToken(session.access_token);
      if (session.user) setState(signedInAs(session.user));
      else await initialise();
      void tryPendingUnlock();
    },
    [initialise, tryPendingUnlock],
  );

  const refreshProfile = useCallback(async (options: { force?: boolean } = {}) => {
    const current = stateRef.current;
    if (!readAuthToken()) return;
    if (!options.force && isProfileFresh(current.lastFetched, Date.now())) return;
    setState((s) => ({ ...s, profileLoading: true }));
    try {
      const profile = await api.fetchProfile();
      setState(signedInAs(profile));
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : 'Failed to fetch profile';
      setState((s) => ({ ...s, profileLoading: false, profileError: message }));
    }
  }, []);

  const logout = useCallback(async () => {
    const token = readAuthToken();
    signOutOfGoogle();
    clearAuthToken();
    // The server forgets the token; a failure changes nothing here, the person is signed out anyway.
    if (token) await api.logoutWith(token).catch(() => undefined);
    queryClient.clear();
    setState(signedOut);
  }, [queryClient]);

  const setTokenBalance = useCallback((balance: number) => {
    setState((s) => (s.profile ? { ...s, profile: { ...s.profile, tokenBalance: balance } } : s));
  }, []);

  const deductTokens = useCallback((amount: number) => {
    setState((s) =>
      s.profile ? { ...s, profile: { ...s.profile, tokenBalance: Math.max(0, s.profile.tokenBalance - amount) } } : s,
    );
  }, []);

  const value = useMemo<AuthApi>(
    () => ({ ...state, completeSignIn, refreshProfile, logout, forceLogout, setTokenBalance, deductTokens }),
    [state, completeSignIn, refreshProfile, logout, forceLogout, setTokenBalance, deductTokens],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
