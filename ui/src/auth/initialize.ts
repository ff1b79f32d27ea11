/** Starts authentication once per page load: loads the config, completes a sign-in or sign-out callback, or restores the user. */
import type { User, UserManager } from 'oidc-client-ts';
import { loadUiConfig } from './ui-config';
import { createUserManager, SIGNIN_CALLBACK_PATH, SIGNOUT_CALLBACK_PATH } from './user-manager';
import { safeReturnPath } from './return-to';

export interface AuthStart {
  manager: UserManager;
  user: User | null;
  /** True on the sign-out callback page: the user just signed out. */
  signedOut: boolean;
}

let started: Promise<AuthStart> | null = null;

async function start(): Promise<AuthStart> {
  const manager = createUserManager(await loadUiConfig());
  const path = window.location.pathname;
  if (path === SIGNIN_CALLBACK_PATH) {
    try {
      const user = await manager.signinRedirectCallback();
      const state = user.state as { returnTo?: unknown } | undefined;
      window.history.replaceState(null, '', safeReturnPath(state?.returnTo));
      return { manager, user, signedOut: false };
    } catch (error) {
      // A stale or replayed callback: leave its URL so that "Try again" starts a fresh sign-in.
      window.history.replaceState(null, '', '/');
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`The sign-in could not be completed (${reason}). Try again.`);
    }
  }
  if (path === SIGNOUT_CALLBACK_PATH) {
    await manager.signoutRedirectCallback().catch(() => undefined);
    return { manager, user: null, signedOut: true };
  }
  let user = await manager.getUser();
  if (user?.expired) user = await manager.signinSilent().catch(() => null);
  return { manager, user, signedOut: false };
}

/** The same promise for every caller (React may mount twice in development). */
export function initializeAuth(): Promise<AuthStart> {
  started ??= start().catch((error: unknown) => {
    started = null;
    throw error;
  });
  return started;
}
