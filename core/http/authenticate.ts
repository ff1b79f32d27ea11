/** Bearer authentication: a `psk_` API token or an identity-provider JWT, resolved to the caller and their workspace. */
import type { TokenVerifier } from '../capabilities/token-verifier.ts';
import { tokenPrefix } from '../domain/api-token-format.ts';
import { unauthorized } from '../kernel/errors.ts';
import type { ApiTokenAuthenticator } from '../services/api-token-authenticator.ts';
import type { Caller } from '../services/caller.ts';
import type { CallerResolver } from '../services/caller-resolver.ts';
import { clientAddressOf } from './client-address.ts';

export type Authenticate = (request: Request) => Promise<Caller>;

export function bearerTokenOf(request: Request): string {
  const header = request.headers.get('authorization');
  if (!header) throw unauthorized('missing bearer token: send Authorization: Bearer <token>');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('the Authorization header must be "Bearer <token>"');
  return match[1]!;
}

export function createAuthenticate(deps: {
  verifier: TokenVerifier;
  callers: CallerResolver;
  apiTokens: ApiTokenAuthenticator;
}): Authenticate {
  return async (request) => {
    const token = bearerTokenOf(request);
    const workspaceId = request.headers.get('x-workspace-id');
    if (token.startsWith(tokenPrefix)) return deps.apiTokens.authenticate(token, workspaceId, clientAddressOf(request));
    const identity = await deps.verifier.verify(token);
    return { ...(await deps.callers.forIdentity(identity, workspaceId)), token: null };
  };
}
