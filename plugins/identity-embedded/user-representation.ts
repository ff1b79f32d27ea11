/** Keycloak's UserRepresentation and CredentialRepresentation: reading them from admin requests and writing them back. */
import type { NewRealmUser, RealmUser, RealmUserChanges } from './realm-users.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; field?: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keycloak leaves null fields out of its JSON; so do we. */
export function toUserRepresentation(user: RealmUser) {
  return {
    id: user.id,
    username: user.username,
    ...(user.firstName !== null ? { firstName: user.firstName } : {}),
    ...(user.lastName !== null ? { lastName: user.lastName } : {}),
    ...(user.email !== null ? { email: user.email } : {}),
    emailVerified: user.emailVerified,
    createdTimestamp: user.createdAt.getTime(),
    enabled: user.enabled,
    totp: false,
    disableableCredentialTypes: [],
    requiredActions: user.passwordTemporary ? ['UPDATE_PASSWORD'] : [],
    notBefore: 0,
    /** Not in Keycloak's answer (it has role-mapping endpoints for that); here too, for convenience. */
    realmRoles: user.realmRoles,
    access: { manageGroupMembership: true, view: true, mapRoles: true, impersonate: false, manage: true },
  };
}

type Checked<T> = { ok: true; value: T | undefined } | { ok: false; message: string; field: string };

function optionalString(body: Record<string, unknown>, field: string): Checked<string | null> {
  const value = body[field];
  if (value === undefined || value === null || typeof value === 'string') return { ok: true, value };
  return { ok: false, message: `${field} must be a string`, field };
}

function optionalBoolean(body: Record<string, unknown>, field: string): Checked<boolean> {
  const value = body[field];
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value === 'boolean') return { ok: true, value };
  return { ok: false, message: `${field} must be true or false`, field };
}

function optionalRoles(body: Record<string, unknown>): Checked<string[]> {
  const value = body.realmRoles;
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (Array.isArray(value) && value.every((role) => typeof role === 'string')) return { ok: true, value };
  return { ok: false, message: 'realmRoles must be an array of role names', field: 'realmRoles' };
}

/** Reads the fields both creation and update accept. */
function readProfile(body: Record<string, unknown>): Parsed<RealmUserChanges> {
  const checks = {
    email: optionalString(body, 'email'),
    firstName: optionalString(body, 'firstName'),
    lastName: optionalString(body, 'lastName'),
    enabled: optionalBoolean(body, 'enabled'),
    emailVerified: optionalBoolean(body, 'emailVerified'),
    realmRoles: optionalRoles(body),
  };
  const changes: Record<string, unknown> = {};
  for (const [field, check] of Object.entries(checks)) {
    if (!check.ok) return check;
    if (check.value !== undefined) changes[field] = check.value;
  }
  return { ok: true, value: changes as RealmUserChanges };
}

/** A CredentialRepresentation of type password: `{type: "password", value, temporary}`. */
export function parsePasswordCredential(body: unknown): Parsed<{ value: string; temporary: boolean }> {
  if (!isObject(body)) return { ok: false, message: 'credential must be an object' };
  if (body.type !== undefined && body.type !== 'password') {
    return { ok: false, message: `unsupported credential type "${String(body.type)}"`, field: 'type' };
  }
  if (typeof body.value !== 'string' || body.value.length === 0) {
    return { ok: false, message: 'No password provided', field: 'value' };
  }
  if (body.temporary !== undefined && body.temporary !== null && typeof body.temporary !== 'boolean') {
    return { ok: false, message: 'temporary must be true or false', field: 'temporary' };
  }
  // Keycloak: a credential is temporary only when it says so.
  return { ok: true, value: { value: body.value, temporary: body.temporary === true } };
}

export function parseNewUser(body: unknown): Parsed<NewRealmUser> {
  if (!isObject(body)) return { ok: false, message: 'user representation must be a JSON object' };
  if (typeof body.username !== 'string' || body.username.trim() === '') {
    return { ok: false, message: 'User name is missing', field: 'username' };
  }
  const profile = readProfile(body);
  if (!profile.ok) return profile;
  const user: NewRealmUser = {
    ...profile.value,
    username: body.username,
    // Keycloak creates a user disabled unless the representation says `enabled: true`.
    enabled: profile.value.enabled ?? false,
  };
  if (body.credentials !== undefined && body.credentials !== null) {
    if (!Array.isArray(body.credentials)) return { ok: false, message: 'credentials must be an array', field: 'credentials' };
    for (const entry of body.credentials) {
      const credential = parsePasswordCredential(entry);
      if (!credential.ok) return credential;
      user.password = credential.value.value;
      user.passwordTemporary = credential.value.temporary;
    }
  }
  return { ok: true, value: user };
}

export function parseUserChanges(body: unknown): Parsed<RealmUserChanges> {
  if (!isObject(body)) return { ok: false, message: 'user representation must be a JSON object' };
  return readProfile(body);
}

/** A list of RoleRepresentations, as the role-mapping endpoints take; only `name` matters here. */
export function parseRoleNames(body: unknown): Parsed<string[]> {
  if (!Array.isArray(body) || !body.every((role) => isObject(role) && typeof role.name === 'string')) {
    return { ok: false, message: 'expected an array of roles with a name' };
  }
  return { ok: true, value: body.map((role) => (role as { name: string }).name) };
}

export function toRoleRepresentation(name: string, realm: string) {
  return { id: name, name, composite: false, clientRole: false, containerId: realm };
}
