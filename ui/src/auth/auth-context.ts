/**
 * The signed-in user's context. Exports: AuthState, AuthContext, useAuth() → { user, accessToken, signIn(), signOut() }.
 */
import { createContext, useContext } from 'react';
import type { User } from 'oidc-client-ts';

export interface AuthState {
  /** The signed-in user (profile: sub, name, email, preferred_username), or null. */
  user: User | null;
  accessToken: string | null;
  /** Redirects to the identity provider's login page, coming back to `returnTo` (default: the current page). */
  signIn(returnTo?: string): Promise<void>;
  signOut(): Promise<void>;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth() needs an AuthProvider above it');
  return state;
}
