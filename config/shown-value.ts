/** A refused setting's value as an error message may show it: never a secret, never a URL's password. */

/** Words of key names that hold secrets (a password, a client secret, an API key or token, credentials). */
const secretWords = new Set(['password', 'passwd', 'passphrase', 'pass', 'secret', 'secrets', 'token', 'tokens', 'key', 'keys', 'credential', 'credentials', 'cookie', 'pem', 'private']);
/** Last words that make a key a number about a secret, not one (`passwordIterations`, `tokenLifetimeSeconds`). */
const measureWords = new Set(['iterations', 'seconds', 'millis', 'milliseconds', 'count', 'length', 'lifetime', 'bytes', 'size']);

const wordsOf = (key: string) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Whether a setting's key path (`bootstrapAdmin.password`, LOADPLANE_PLUGIN_MCP_AI__API_KEY) may hold a secret. */
export function looksSecret(path: string): boolean {
  const words = wordsOf(path);
  return words.some((word) => secretWords.has(word)) && !measureWords.has(words[words.length - 1] ?? '');
}

/** `"value"` for the message, `(hidden)` for a secret's; a URL's password is masked either way. */
export function shownValue(path: string, value: unknown): string {
  if (looksSecret(path)) return '(hidden)';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const masked = text.replace(/(\/\/[^/@\s]*?:)[^/@\s]*@/g, '$1***@');
  return JSON.stringify(masked.length > 200 ? `${masked.slice(0, 200)}…` : masked);
}
