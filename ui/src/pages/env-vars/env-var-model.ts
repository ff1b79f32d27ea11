/**
 * Environment variables' rules as the API checks them (docs/workspace-data.md), so the form says what is wrong first.
 * Exports: validateKey(key), validateValue(value), actorLabel(actor), MAX_VARIABLES.
 * Reserved names (PATH, LD_*, PYTHON* ...) are the API's to refuse: its message names the rule.
 */

export const MAX_VARIABLES = 100;
export const MAX_VALUE_BYTES = 8192;

/** null when the key is a POSIX environment name of at most 128 characters, else why not. */
export function validateKey(key: string): string | null {
  if (!key) return 'Enter a name, such as API_KEY.';
  if (key.length > 128) return 'A name is at most 128 characters.';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return 'A name has letters, digits and _ only, and does not start with a digit.';
  return null;
}

/** null when the value may be stored (at most 8 KiB of UTF-8, no NUL), else why not. */
export function validateValue(value: string): string | null {
  if (value.includes('\0')) return 'A value cannot hold a NUL character.';
  if (new TextEncoder().encode(value).length > MAX_VALUE_BYTES) return 'A value is at most 8 KiB.';
  return null;
}

export interface Actor {
  type: string;
  id: string | null;
  label: string | null;
  user_id: string | null;
}

/** Who changed a variable, for people: "alice", "API token ci-bot", "system". */
export function actorLabel(actor: Actor | null | undefined): string {
  if (!actor) return '–';
  if (actor.type === 'token') return `API token ${actor.label ?? actor.id ?? ''}`.trim();
  if (actor.type === 'user') return actor.label ?? actor.user_id ?? actor.id ?? 'a user';
  return actor.label ?? actor.type;
}
