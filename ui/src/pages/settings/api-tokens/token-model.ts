/**
 * API tokens, the pure part: the scopes the API accepts (with what each opens), the expiry choices, how many tokens
 * count against the plan's per-user limit, and the create form's checks.
 * Exports: SCOPES, scopeHelp, describeScopes, EXPIRY_CHOICES, ExpiryChoice, expiryOf, activeTokenCount, isExpired,
 * TokenDraft, emptyTokenDraft, validateTokenDraft, tokenBody, tokenLimitText.
 */
import { allOf, type ApiTokenScope } from '../settings-types';

/** In the spec's order; the compiler checks the list against the API's enum. */
export const SCOPES = allOf<ApiTokenScope>()(['tests:read', 'tests:write', 'runs:read', 'runs:write', 'machines:read', 'machines:write', 'metrics:read'] as const);

export const scopeHelp: Record<ApiTokenScope, string> = {
  'tests:read': 'list and read tests',
  'tests:write': 'create, edit and delete tests',
  'runs:read': 'read runs and their logs',
  'runs:write': 'start and cancel runs',
  'machines:read': 'list machines',
  'machines:write': 'manage machines',
  'metrics:read': 'metric queries, OTEL metrics of runs, Prometheus/Grafana API',
};

/** "Full access" for a token without scopes, else the scopes in the spec's order. */
export function describeScopes(scopes: readonly string[]): string {
  if (scopes.length === 0) return 'Full access (your role’s rights)';
  const known = SCOPES.filter((scope) => scopes.includes(scope));
  const other = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  return [...known, ...other].join(', ');
}

export type ExpiryChoice = 'never' | '30' | '90' | '365' | 'custom';
export const EXPIRY_CHOICES: { value: ExpiryChoice; label: string }[] = [
  { value: 'never', label: 'Never' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'custom', label: 'On a date…' },
];

const DAY = 86_400_000;
/** The API refuses an expiry more than 5 years ahead. */
export const MAX_EXPIRY_DAYS = 5 * 365;

/**
 * The `expires_at` to send: null for never; days from now; or the end of the chosen day (UTC) for a date
 * (`YYYY-MM-DD`). Answers an error text instead when the date is missing, not a date, past, or too far.
 */
export function expiryOf(choice: ExpiryChoice, date: string, now: number = Date.now()): { value: string | null } | { error: string } {
  if (choice === 'never') return { value: null };
  if (choice !== 'custom') return { value: new Date(now + Number(choice) * DAY).toISOString() };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return { error: 'Pick the day the token stops working.' };
  const end = Date.parse(`${date}T23:59:59Z`);
  if (Number.isNaN(end)) return { error: 'Pick the day the token stops working.' };
  if (end <= now) return { error: 'The expiry must be in the future.' };
  if (end > now + MAX_EXPIRY_DAYS * DAY) return { error: 'A token can last at most 5 years.' };
  return { value: new Date(end).toISOString() };
}

export function isExpired(token: { expires_at: string | null }, now: number = Date.now()): boolean {
  return token.expires_at !== null && Date.parse(token.expires_at) <= now;
}

/** Tokens that count against the plan's per-user limit: the listed (unrevoked) ones that have not expired. */
export function activeTokenCount(tokens: readonly { expires_at: string | null }[], now: number = Date.now()): number {
  return tokens.filter((token) => !isExpired(token, now)).length;
}

/** "2 of 5 tokens used", "This plan includes no API tokens". */
export function tokenLimitText(used: number, limit: number): string {
  if (limit <= 0) return 'This workspace’s plan includes no API access: upgrade the plan to create tokens.';
  return `${used} of ${limit} ${limit === 1 ? 'token' : 'tokens'} used (the plan’s limit per user)`;
}

export interface TokenDraft {
  name: string;
  scopes: ApiTokenScope[];
  expiry: ExpiryChoice;
  date: string;
}

export const emptyTokenDraft = (): TokenDraft => ({ name: '', scopes: [], expiry: '90', date: '' });

export type TokenErrors = Partial<Record<'name' | 'expiry', string>>;

export function validateTokenDraft(draft: TokenDraft, now: number = Date.now()): TokenErrors {
  const errors: TokenErrors = {};
  if (!draft.name.trim()) errors.name = 'Give the token a name, such as the script or machine that uses it.';
  else if (draft.name.trim().length > 200) errors.name = 'At most 200 characters.';
  const expiry = expiryOf(draft.expiry, draft.date, now);
  if ('error' in expiry) errors.expiry = expiry.error;
  return errors;
}

/** The POST /api-tokens body of a valid draft (scopes in the spec's order; none = full access). */
export function tokenBody(draft: TokenDraft, now: number = Date.now()): { name: string; scopes: ApiTokenScope[]; expires_at: string | null } {
  const expiry = expiryOf(draft.expiry, draft.date, now);
  return {
    name: draft.name.trim(),
    scopes: SCOPES.filter((scope) => draft.scopes.includes(scope)),
    expires_at: 'value' in expiry ? expiry.value : null,
  };
}
