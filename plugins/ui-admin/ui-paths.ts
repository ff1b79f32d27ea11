/** The paths the UI's router owns: each answers the UI's index so a deep link or a reload lands on the right page. */

/** contract.md "Admin UI": the real URLs, plus the OIDC redirect targets. Anything else stays a 404. */
export const uiPathPrefixes = [
  'runs',
  'tests',
  'machines',
  'configs',
  'dashboards',
  'git-repos',
  'audit-log',
  'settings',
  'signin-callback',
  'signout-callback',
] as const;

/** Elysia route patterns: `/`, and each prefix alone and with anything under it. */
export const uiRoutePatterns: readonly string[] = ['/', ...uiPathPrefixes.flatMap((prefix) => [`/${prefix}`, `/${prefix}/*`])];
