/**
 * AuthProvider: owns the UserManager and the signed-in user, keeps the API's bearer token current and answers useAuth().
 * Also exports AuthStatusContext / useAuthStatus() for the AuthGate: { phase: 'loading' | 'ready' | 'error', error, signedOut, retry() }.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { User, UserManager } from 'oidc-client-ts';
import { AuthContext, type AuthState } from './auth-context';
import { initializeAuth } from './initialize';
import { currentPath, safeReturnPath } from './return-to';
import { onUnauthorized, setAccessToken } from '../api/credentials';

export interface AuthStatus {
  phase: 'loading' | 'ready' | 'error';
  error: string | null;
  signedOut: boolean;
  retry(): void;
}

export const AuthStatusContext = createContext<AuthStatus | null>(null);

export function useAuthStatus(): AuthStatus {
  const status = useContext(AuthStatusContext);
  if (!status) throw new Error('useAuthStatus() needs an AuthProvider above it');
  return status;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const managerRef = useRef<UserManager | null>(null);
  const [user, setUserState] = useState<User | null>(null);
  const [phase, setPhase] = useState<AuthStatus['phase']>('loading');
  const [error, setError] = useState<string | null>(null);
  const [signedOut, setSignedOut] = useState(false);
  const [attempt, setAttempt] = useState(0);

  const setUser = useCallback((next: User | null) => {
    setAccessToken(next && !next.expired ? next.access_token : null);
    setUserState(next);
  }, []);

  useEffect(() => {
    let active = true;
    setPhase('loading');
    initializeAuth()
      .then(({ manager, user: restored, signedOut: out }) => {
        if (!active) return;
        managerRef.current = manager;
        setUser(restored);
        setSignedOut(out);
        setPhase('ready');
      })
      .catch((reason: unknown) => {
        if (!active) return;
        setError(reason instanceof Error ? reason.message : String(reason));
        setPhase('error');
      });
    return () => {
      active = false;
    };
  }, [attempt, setUser]);

  useEffect(() => {
    const manager = managerRef.current;
    if (!manager || phase !== 'ready') return;
    const loaded = (next: User) => setUser(next);
    const unloaded = () => setUser(null);
    const expired = () => void manager.removeUser();
    manager.events.addUserLoaded(loaded);
    manager.events.addUserUnloaded(unloaded);
    manager.events.addAccessTokenExpired(expired);
    let renewing = false;
    onUnauthorized(() => {
      if (renewing) return;
      renewing = true;
      manager
        .signinSilent()
        .catch(() => manager.removeUser())
        .finally(() => {
          renewing = false;
        });
    });
    return () => {
      manager.events.removeUserLoaded(loaded);
      manager.events.removeUserUnloaded(unloaded);
      manager.events.removeAccessTokenExpired(expired);
      onUnauthorized(null);
    };
  }, [phase, setUser]);

  const signIn = useCallback(async (returnTo?: string) => {
    const manager = managerRef.current;
    if (!manager) return;
    await manager.signinRedirect({ state: { returnTo: safeReturnPath(returnTo ?? currentPath()) } });
  }, []);

  const signOut = useCallback(async () => {
    const manager = managerRef.current;
    if (!manager) return;
    try {
      await manager.signoutRedirect();
    } catch {
      await manager.removeUser();
      window.location.assign('/signout-callback');
    }
  }, []);

  const auth = useMemo<AuthState>(
    () => ({ user, accessToken: user?.access_token ?? null, signIn, signOut }),
    [user, signIn, signOut],
  );
  const status = useMemo<AuthStatus>(
    () => ({ phase, error, signedOut, retry: () => setAttempt((n) => n + 1) }),
    [phase, error, signedOut],
  );

  return (
    <AuthStatusContext.Provider value={status}>
      <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>
    </AuthStatusContext.Provider>
  );
}
