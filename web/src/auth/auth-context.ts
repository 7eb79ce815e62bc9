import { createContext, useContext } from 'react';
import type { Session, UserProfile } from '../api/schema';

export interface AuthUser {
  id: string;
  email: string;
}

export interface AuthState {
  authUser: AuthUser | null;
  loading: boolean;
  profile: UserProfile | null;
  profileLoading: boolean;
  profileError: string | null;
  lastFetched: number | null;
}

export interface AuthApi extends AuthState {
  /** Stores the token of a fresh session and shows its user at once. */
  completeSignIn: (session: Session) => Promise<void>;
  /** Fetches the profile again (now, or only when it is older than 5 minutes). */
  refreshProfile: (options?: { force?: boolean }) => Promise<void>;
  logout: () => Promise<void>;
  /** Signs out here only, without calling the server (the session is already gone). */
  forceLogout: () => void;
  setTokenBalance: (balance: number) => void;
  deductTokens: (amount: number) => void;
}

export const AuthContext = createContext<AuthApi | null>(null);

export function useAuth(): AuthApi {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
