/** Where to go after sign-in: kept in the sign-in request's state, only ever a path of this origin. */

export function currentPath(): string {
  const { pathname, search, hash } = window.location;
  return pathname + search + hash;
}

export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return '/';
  if (value.startsWith('/signin-callback') || value.startsWith('/signout-callback')) return '/';
  return value;
}
