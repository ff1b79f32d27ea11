/** Listing and counting realm users with Keycloak's admin filters: `search`, `username`, `email`, names, `exact`, paging. */
import type { FilterQuery } from '@mikro-orm/core';
import { IdpUser } from './entities/idp-user.ts';
import { type DatabaseLike, type RealmUser, toRealmUser } from './realm-users.ts';

export interface RealmUserQuery {
  /** Username, e-mail, first or last name: prefix match (`foo`, `foo*`), infix (`*foo*`) or exact (`"foo"`), as Keycloak 22+. */
  search?: string;
  username?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  /** Field filters match exactly (case-insensitive) instead of by substring. */
  exact?: boolean;
  enabled?: boolean;
  /** Offset, default 0. */
  first?: number;
  /** Page size, default 100 as Keycloak; negative means no limit. */
  max?: number;
}

const DEFAULT_MAX = 100;

/** Escapes LIKE's wildcards so user input matches literally (PostgreSQL's default escape is the backslash). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

function searchPattern(search: string): { exact: string } | { like: string } {
  const trimmed = search.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) return { exact: trimmed.slice(1, -1) };
  const like = trimmed
    .split('*')
    .map(escapeLike)
    .join('%');
  return { like: trimmed.includes('*') ? like : `${like}%` };
}

type Field = 'username' | 'email' | 'firstName' | 'lastName';

function fieldCondition(field: Field, value: string, exact: boolean): FilterQuery<IdpUser> {
  return exact
    ? { [field]: { $ilike: escapeLike(value.trim()) } }
    : { [field]: { $ilike: `%${escapeLike(value.trim())}%` } };
}

function buildWhere(realm: string, query: RealmUserQuery): FilterQuery<IdpUser> {
  const conditions: FilterQuery<IdpUser>[] = [{ realm }];
  if (query.search !== undefined && query.search.trim() !== '' && query.search.trim() !== '*') {
    const pattern = searchPattern(query.search);
    const value = 'exact' in pattern ? escapeLike(pattern.exact) : pattern.like;
    conditions.push({
      $or: (['username', 'email', 'firstName', 'lastName'] as const).map((field) => ({ [field]: { $ilike: value } })),
    });
  }
  for (const field of ['username', 'email', 'firstName', 'lastName'] as const) {
    const value = query[field];
    if (value !== undefined && value.trim() !== '') conditions.push(fieldCondition(field, value, query.exact ?? false));
  }
  if (query.enabled !== undefined) conditions.push({ enabled: query.enabled });
  return { $and: conditions };
}

export async function listRealmUsers(db: DatabaseLike, realm: string, query: RealmUserQuery = {}): Promise<RealmUser[]> {
  const max = query.max ?? DEFAULT_MAX;
  const entities = await db.fork().find(IdpUser, buildWhere(realm, query), {
    orderBy: { username: 'asc' },
    offset: Math.max(0, query.first ?? 0),
    ...(max >= 0 ? { limit: max } : {}),
  });
  return entities.map(toRealmUser);
}

export async function countRealmUsers(db: DatabaseLike, realm: string, query: RealmUserQuery = {}): Promise<number> {
  return db.fork().count(IdpUser, buildWhere(realm, query));
}
