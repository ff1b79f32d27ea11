/** Users of the embedded IdP for specs that need a second person: a password grant, and a user made through Keycloak's admin API. */
import { expect, service } from './fixtures.ts';

export async function passwordToken(username: string, password: string): Promise<string> {
  const response = await fetch(`${service.url}/auth/realms/loadplane/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'loadplane', client_secret: service.clientSecret, username, password }),
  });
  if (response.status !== 200) throw new Error(`password grant for ${username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A user of the embedded IdP (Keycloak's admin API), signed in once through the API (so they can be invited), with a workspace of their own. */
export async function createSignedInUser(username: string, password: string): Promise<string> {
  const admin = await passwordToken('admin', service.adminPassword);
  const created = await fetch(`${service.url}/auth/admin/realms/loadplane/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username}@example.com`,
      emailVerified: true,
      enabled: true,
      credentials: [{ type: 'password', value: password, temporary: false }],
    }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const token = await passwordToken(username, password);
  const me = await fetch(`${service.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(me.status).toBe(200);
  return token;
}
