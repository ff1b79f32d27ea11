/** API-token scopes (the spec's table): a scoped token reaches only the routes its scopes cover. */

export const scopes = [
  'tests:read',
  'tests:write',
  'runs:read',
  'runs:write',
  'machines:read',
  'machines:write',
  'metrics:read',
] as const;
export type Scope = (typeof scopes)[number];

export const isScope = (value: string): value is Scope => (scopes as readonly string[]).includes(value);
