/** The security headers of the UI's HTML: a Content-Security-Policy that admits the identity provider, and friends. */

/**
 * Scripts only from our own origin (Bun's build has no inline script). Styles may be inline: uPlot and CodeMirror set
 * them at run time. The identity provider's origin is reachable by fetch (discovery, token, userinfo), by frames
 * (silent renew) and by forms (the sign-out redirect) even when it lives elsewhere (Keycloak on its own host).
 */
export function contentSecurityPolicy(authority: string): string {
  const idp = new URL(authority).origin;
  return [
    "default-src 'self'",
    `connect-src 'self' ${idp}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "object-src 'none'",
    `frame-src ${idp}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    `form-action 'self' ${idp}`,
  ].join('; ');
}

export function htmlSecurityHeaders(authority: string): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(authority),
    'x-content-type-options': 'nosniff',
    // The sign-in callback's URL carries the code: no page it links to may see it.
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}
