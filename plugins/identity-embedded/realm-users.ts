/** Realm users for code: create, read, update, delete and set passwords; used by the admin API, bootstrap, tests and the host. */
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/core';
import { badRequest, conflict, type Database } from 'loadplane/plugin';
import { DEFAULT_PASSWORD_ITERATIONS } from './config.ts';
import { IdpUser } from './entities/idp-user.ts';
import { hashPassword, MAX_PASSWORD_LENGTH } from './password-hash.ts';

/** Anything that hands out a fresh unit of work: the database port, or an opened test database. */
export type DatabaseLike = Pick<Database, 'fork'>;

/** A realm user as code sees it: never the password hash. */
export interface RealmUser {
  id: string;
  realm: string;
  username: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  enabled: boolean;
  realmRoles: string[];
  hasPassword: boolean;
  /** Keycloak's temporary credential: the password grant refuses it until the password is reset. */
  passwordTemporary: boolean;
  createdAt: Date;
}

export interface NewRealmUser {
  username: string;
  email?: string | null;
  emailVerified?: boolean;
  firstName?: string | null;
  lastName?: string | null;
  /** Default true here; the admin API follows Keycloak, where a user is enabled only when asked. */
  enabled?: boolean;
  realmRoles?: readonly string[];
  password?: string;
  passwordTemporary?: boolean;
}

export interface RealmUserChanges {
  email?: string | null;
  emailVerified?: boolean;
  firstName?: string | null;
  lastName?: string | null;
  enabled?: boolean;
  realmRoles?: readonly string[];
}

export interface PasswordOptions {
  /** PBKDF2 iterations for a new hash; the provider's `passwordIterations` (default 210000). */
  passwordIterations?: number;
}

export const USER_EXISTS_WITH_SAME_USERNAME = 'User exists with same username';
export const USER_EXISTS_WITH_SAME_EMAIL = 'User exists with same email';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Letters, digits and `. _ @ + -`, as Keycloak's default user profile allows. */
const USERNAME_PATTERN = /^[\p{L}\p{N}._@+-]+$/u;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;
const ROLE_PATTERN = /^[^\s\p{Cc}][^\p{Cc}]{0,254}$/u;

export const isUuid = (value: string) => UUID_PATTERN.test(value);

/** Keycloak keeps usernames lower-cased; sign-in and look-ups are case-insensitive. */
export function normalizeUsername(username: string): string {
  const value = username.trim().toLowerCase();
  if (value.length === 0 || value.length > 255 || !USERNAME_PATTERN.test(value)) {
    throw badRequest('username must be 1-255 letters, digits or . _ @ + -', { field: 'username' });
  }
  return value;
}

function normalizeEmail(email: string | null | undefined): string | null {
  if (email === undefined || email === null || email.trim() === '') return null;
  const value = email.trim().toLowerCase();
  if (value.length > 320 || !EMAIL_PATTERN.test(value)) throw badRequest('invalid email address', { field: 'email' });
  return value;
}

function normalizeName(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null || value.trim() === '') return null;
  if (value.length > 255) throw badRequest(`${field} is longer than 255 characters`, { field });
  return value.trim();
}

function normalizeRoles(roles: readonly string[]): string[] {
  for (const role of roles) {
    if (typeof role !== 'string' || !ROLE_PATTERN.test(role)) throw badRequest(`invalid role name "${role}"`, { field: 'realmRoles' });
  }
  return [...new Set(roles)].sort();
}

export function checkPassword(password: string): void {
  if (typeof password !== 'string' || password.length === 0) throw badRequest('password must not be empty', { field: 'password' });
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw badRequest(`password is longer than ${MAX_PASSWORD_LENGTH} characters`, { field: 'password' });
  }
}

export function toRealmUser(entity: IdpUser): RealmUser {
  return {
    id: entity.id,
    realm: entity.realm,
    username: entity.username,
    email: entity.email ?? null,
    emailVerified: entity.emailVerified,
    firstName: entity.firstName ?? null,
    lastName: entity.lastName ?? null,
    enabled: entity.enabled,
    realmRoles: [...entity.realmRoles],
    hasPassword: entity.passwordHash !== null && entity.passwordHash !== undefined,
    passwordTemporary: entity.passwordTemporary,
    createdAt: entity.createdAt,
  };
}

/** Turns the unique indexes' violations into Keycloak's 409 messages. */
async function flushUnique(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw conflict(error.message.includes('idp_users_realm_email') ? USER_EXISTS_WITH_SAME_EMAIL : USER_EXISTS_WITH_SAME_USERNAME);
    }
    throw error;
  }
}

/**
 * The entity with its password hash, for the sign-in path; by username, case-insensitive. Usernames and e-mails are
 * stored lower-cased (normalizeUsername, normalizeEmail), so plain equality on the lower-cased input is exact.
 * Not MikroORM's `{ [raw('lower(username)')]: ... }`: on Bun that key's fragment can be garbage-collected before the
 * query is built, which silently drops the condition and answers the realm's first user (seen as a flaky sign-in
 * resolving to `admin`).
 */
export async function loadUserEntityByUsername(em: EntityManager, realm: string, username: string): Promise<IdpUser | null> {
  return em.findOne(IdpUser, { realm, username: username.trim().toLowerCase() });
}

export async function loadUserEntityByEmail(em: EntityManager, realm: string, email: string): Promise<IdpUser | null> {
  return em.findOne(IdpUser, { realm, email: email.trim().toLowerCase() });
}

export async function loadUserEntityById(em: EntityManager, realm: string, id: string): Promise<IdpUser | null> {
  return isUuid(id) ? em.findOne(IdpUser, { realm, id: id.toLowerCase() }) : null;
}

/**
 * Creates a user; throws DomainError `conflict` ("User exists with same username" / "... email")
 * or `bad_request` for an invalid field.
 */
export async function createRealmUser(
  db: DatabaseLike,
  realm: string,
  user: NewRealmUser,
  options: PasswordOptions = {},
): Promise<RealmUser> {
  const username = normalizeUsername(user.username);
  const email = normalizeEmail(user.email);
  const firstName = normalizeName(user.firstName, 'firstName');
  const lastName = normalizeName(user.lastName, 'lastName');
  const realmRoles = normalizeRoles(user.realmRoles ?? []);
  let passwordHash: string | null = null;
  if (user.password !== undefined) {
    checkPassword(user.password);
    passwordHash = await hashPassword(user.password, options.passwordIterations ?? DEFAULT_PASSWORD_ITERATIONS);
  }
  const now = new Date();
  const em = db.fork();
  const entity = em.create(IdpUser, {
    id: crypto.randomUUID(),
    realm,
    username,
    email,
    emailVerified: user.emailVerified ?? false,
    firstName,
    lastName,
    enabled: user.enabled ?? true,
    realmRoles,
    passwordHash,
    passwordTemporary: passwordHash !== null && (user.passwordTemporary ?? false),
    createdAt: now,
    updatedAt: now,
  });
  await flushUnique(em);
  return toRealmUser(entity);
}

export async function findRealmUserById(db: DatabaseLike, realm: string, id: string): Promise<RealmUser | null> {
  const entity = await loadUserEntityById(db.fork(), realm, id);
  return entity ? toRealmUser(entity) : null;
}

export async function findRealmUserByUsername(db: DatabaseLike, realm: string, username: string): Promise<RealmUser | null> {
  const entity = await loadUserEntityByUsername(db.fork(), realm, username);
  return entity ? toRealmUser(entity) : null;
}

/** Applies the given fields (absent ones stay); null when the user does not exist. */
export async function updateRealmUser(
  db: DatabaseLike,
  realm: string,
  id: string,
  changes: RealmUserChanges,
): Promise<RealmUser | null> {
  const em = db.fork();
  const entity = await loadUserEntityById(em, realm, id);
  if (!entity) return null;
  if (changes.email !== undefined) entity.email = normalizeEmail(changes.email);
  if (changes.emailVerified !== undefined) entity.emailVerified = changes.emailVerified;
  if (changes.firstName !== undefined) entity.firstName = normalizeName(changes.firstName, 'firstName');
  if (changes.lastName !== undefined) entity.lastName = normalizeName(changes.lastName, 'lastName');
  if (changes.enabled !== undefined) entity.enabled = changes.enabled;
  if (changes.realmRoles !== undefined) entity.realmRoles = normalizeRoles(changes.realmRoles);
  entity.updatedAt = new Date();
  await flushUnique(em);
  return toRealmUser(entity);
}

/** Replaces the user's password; false when the user does not exist. */
export async function setRealmUserPassword(
  db: DatabaseLike,
  realm: string,
  id: string,
  password: string,
  options: PasswordOptions & { temporary?: boolean } = {},
): Promise<boolean> {
  checkPassword(password);
  const em = db.fork();
  const entity = await loadUserEntityById(em, realm, id);
  if (!entity) return false;
  entity.passwordHash = await hashPassword(password, options.passwordIterations ?? DEFAULT_PASSWORD_ITERATIONS);
  entity.passwordTemporary = options.temporary ?? false;
  entity.updatedAt = new Date();
  await em.flush();
  return true;
}

/** Deletes the user and, through the foreign key, every session of theirs; false when absent. */
export async function deleteRealmUser(db: DatabaseLike, realm: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await db.fork().nativeDelete(IdpUser, { realm, id: id.toLowerCase() })) > 0;
}
