/** Builds the oidc-client-ts UserManager: authorization code + PKCE, silent renew by refresh token, user in sessionStorage. */
import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { UiConfig } from './ui-config';

export const SIGNIN_CALLBACK_PATH = '/signin-callback';
export const SIGNOUT_CALLBACK_PATH = '/signout-callback';

export function createUserManager(config: UiConfig): UserManager {
  const origin = window.location.origin;
  return new UserManager({
    authority: config.authority,
    client_id: config.client_id,
    redirect_uri: origin + SIGNIN_CALLBACK_PATH,
    post_logout_redirect_uri: origin + SIGNOUT_CALLBACK_PATH,
    response_type: 'code',
    scope: 'openid profile email',
    automaticSilentRenew: true,
    // Renewal uses the refresh token (the UI's pages refuse frames, so no iframe renewal); failing that, sign in again.
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
    monitorSession: false,
    loadUserInfo: false,
  });
}
