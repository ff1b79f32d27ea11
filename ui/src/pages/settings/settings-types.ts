/**
 * Short names for the settings pages' API schemas (from the generated types, never edited by hand).
 * Exports: ApiTokenScope, WebhookEvent, Role, Permission, Webhook, CreatedWebhook, WebhookDelivery, WebhookAttempt,
 * Member, Invitation, AccessControls, AuditEntry, Usage, NotificationPreferences, RotatedApiToken.
 */
import type { components, operations } from '../../api/schema';

type Schemas = components['schemas'];
type JsonBody<Op extends keyof operations> = operations[Op] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;

export type ApiTokenScope = NonNullable<JsonBody<'postApiTokens'>['scopes']>[number];
export type WebhookEvent = Schemas['Webhook']['events'][number];
export type Role = Schemas['Member']['role'];
export type Permission = NonNullable<JsonBody<'putAccessControls'>['roles']['admin']>[number];
export type Webhook = Schemas['Webhook'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type Member = Schemas['Member'];
export type Invitation = Schemas['Invitation'];
export type AccessControls = Schemas['AccessControls'];
export type AuditEntry = Schemas['AuditEntry'];
export type Usage = Schemas['Usage'];
export type NotificationPreferences = Schemas['NotificationPreferences'];

/** Every value of a union, listed once: a compile error when the API adds or drops one. */
export function allOf<T extends string>() {
  return <const L extends readonly T[]>(list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> })) => list;
}
