/**
 * The credentials every API call carries, kept outside React so the fetch middleware can read them.
 *
 * Exports: `getAccessToken()`, `setAccessToken(token)`, `getWorkspaceId()`, `setCurrentWorkspaceId(id)`,
 * `onUnauthorized(handler)` (registers what to do on a 401), `notifyUnauthorized()`.
 */

let accessToken: string | null = null;
let workspaceId: string | null = null;
let unauthorizedHandler: (() => void) | null = null;

export function getAccessToken(): string | null {
  return accessToken;
}

export function setAccessToken(token: string | null): void {
  accessToken = token;
}

export function getWorkspaceId(): string | null {
  return workspaceId;
}

export function setCurrentWorkspaceId(id: string | null): void {
  workspaceId = id;
}

/** Registers the handler run when the API answers 401 (the auth provider renews or signs in again). */
export function onUnauthorized(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

export function notifyUnauthorized(): void {
  unauthorizedHandler?.();
}
