/**
 * Loopback is no credential. The service as `npm start` runs it (embedded IdP, the local agent with its bubblewrap
 * sandbox) runs a `custom` test script, which shares the machine's loopback with the service and with every local user.
 * The script asks GET /metrics without a token (401), tries to read DATA_DIR/metrics-token (masked), and guesses
 * passwords through the login form and the password grant: 40 for the user `victim2`, 40 for a random name, and one
 * each for 15 more names, enough to pass the per-address factor. Afterwards, from the same loopback, the admin and
 * another user still sign in; the guessed names got what their own account limit gives, and the address throttle
 * refuses only the names the script tried.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { scriptLines } from '../helpers/script-log.ts';
import { freePort, passwordGrant, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { readSse } from '../helpers/stream-clients.ts';

const REALM = 'loadplane';
const VICTIM_PASSWORD = 'victim2-password';
const BYSTANDER_PASSWORD = 'bystander-password';
/** Any valid S256 challenge: the login page needs one; no code is ever exchanged. */
const CODE_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const bwrap = Bun.which('bwrap');
const python = Bun.which('python3');
const missing = [...(bwrap ? [] : ['bwrap (Debian package bubblewrap)']), ...(python ? [] : ['python3'])];
if (missing.length > 0) {
  const message = `local-agent loopback suite SKIPPED: ${missing.join(' and ')} not found; the local agent runs no script without its sandbox`;
  if (process.env.CI) throw new Error(`CI must run it: ${message}`);
  console.warn(message);
}

let service: ServiceProcess;
let dataDir = '';
let adminPassword = '';
let clientSecret = '';
let admin = '';

async function api<T>(path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await fetch(`${service.url}/api/v1${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** The embedded IdP's admin API, as the admin. */
const idpAdmin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  fetch(`${service.url}/auth/admin/realms/${REALM}${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });

/** The password grant from this process, which is on the service's loopback like the script. */
const grant = (username: string, password: string) =>
  fetch(`${service.url}/auth/realms/${REALM}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'loadplane', client_secret: clientSecret, username, password }),
  });

/** A browser's sign-in through the login page, from loopback: the answer to the form's POST. */
async function formSignIn(username: string, password: string): Promise<Response> {
  const auth = `${service.url}/auth/realms/${REALM}/protocol/openid-connect/auth`;
  const query = new URLSearchParams({
    client_id: 'loadplane',
    redirect_uri: `${service.url}/callback`,
    response_type: 'code',
    code_challenge_method: 'S256',
    code_challenge: CODE_CHALLENGE,
    state: 'st',
  });
  const page = await fetch(`${auth}?${query}`);
  expect(page.status).toBe(200);
  const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
  const loginState = /name="login_state" value="([^"]+)"/.exec(await page.text())![1]!;
  return fetch(auth, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ login_state: loginState, username, password }),
  });
}

/** The attack, as any member could write it: no credential but the confidential client's id and secret, which the password grant needs (users of the grant have it). */
function attackScript(): string {
  const literal = (value: string) => JSON.stringify(value);
  return `#!/usr/bin/env python3
import json, re, secrets, urllib.error, urllib.parse, urllib.request
BASE = ${literal(service.url)}
OIDC = BASE + '/auth/realms/${REALM}/protocol/openid-connect'
CLIENT_SECRET = ${literal(clientSecret)}

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
opener = urllib.request.build_opener(NoRedirect)

def call(url, form=None, headers=None):
    data = None if form is None else urllib.parse.urlencode(form).encode()
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with opener.open(request) as answer:
            return answer.status, answer.read().decode(), answer.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), error.headers

# (a) the service's own metrics, from loopback, without a token
status, _, headers = call(BASE + '/metrics')
print('METRICS', status, headers.get('www-authenticate'), flush=True)

# (b) the generated token, where the operator finds it
try:
    with open(${literal(join(dataDir, 'metrics-token'))}) as file:
        print('TOKEN-FILE READ', file.read().strip(), flush=True)
except Exception as error:
    print('TOKEN-FILE DENIED', type(error).__name__, flush=True)

# (c) password guessing through both doors
def form_attempt(name, password):
    query = urllib.parse.urlencode({'client_id': 'loadplane', 'redirect_uri': BASE + '/callback', 'response_type': 'code',
                                    'code_challenge_method': 'S256', 'code_challenge': '${CODE_CHALLENGE}', 'state': 's'})
    status, page, headers = call(OIDC + '/auth?' + query)
    cookie = headers.get('set-cookie').split(';')[0]
    login_state = re.search(r'name="login_state" value="([^"]+)"', page).group(1)
    status, page, _ = call(OIDC + '/auth', {'login_state': login_state, 'username': name, 'password': password}, {'cookie': cookie})
    if status == 429: return 'throttled'
    if 'Invalid username or password.' in page: return 'invalid'
    if 'Account is temporarily disabled' in page: return 'account-locked'
    return 'other-%d' % status

def grant_attempt(name, password):
    status, body, _ = call(OIDC + '/token', {'grant_type': 'password', 'client_id': 'loadplane', 'client_secret': CLIENT_SECRET,
                                             'username': name, 'password': password})
    description = json.loads(body or '{}').get('error_description')
    if status == 429: return 'throttled'
    if status == 401 and description == 'Invalid user credentials': return 'invalid'
    if status == 400 and description == 'Account temporarily disabled': return 'account-locked'
    return 'other-%d' % status

def attack(label, names):
    outcomes = {}
    for index, name in enumerate(names):
        attempt = form_attempt if index % 2 == 0 else grant_attempt
        outcome = attempt(name, 'guess-' + secrets.token_hex(4))
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    print('RESULT', label, ' '.join('%s=%d' % pair for pair in sorted(outcomes.items())), flush=True)

attack('victim2', ['victim2'] * 40)
attack('random-name', ['guess-' + secrets.token_hex(6)] * 40)
sprayed = ['spray-' + secrets.token_hex(6) for _ in range(15)]
attack('spray', sprayed)
attack('spray-again', sprayed[:2])
print('SPRAYED', sprayed[0], flush=True)
print('ATTACK DONE', flush=True)
`;
}

describe.skipIf(missing.length > 0)('a script on the local agent, on the service\'s loopback', () => {
  let log: string[] = [];

  beforeAll(async () => {
    // Outside /tmp, the home and the repository: only the DATA_DIR mask itself hides it from the script.
    dataDir = await mkdtemp('/var/tmp/loadplane-loopback-');
    await chmod(dataDir, 0o700);
    const port = await freePort();
    // What `npm start` runs: embedded IdP with a generated admin password, the local agent, no METRICS_TOKEN.
    service = await startServiceProcess({ port, env: { DATA_DIR: dataDir, LOCAL_AGENT: 'true', PUBLIC_URL: `http://127.0.0.1:${port}` } });
    adminPassword = (await readFile(join(dataDir, 'initial-admin-password'), 'utf8')).trim();
    clientSecret = (await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim();
    admin = await passwordGrant(service.url, { username: 'admin', password: adminPassword, clientSecret });
    for (const [username, password] of [['victim2', VICTIM_PASSWORD], ['bystander', BYSTANDER_PASSWORD]]) {
      const created = await idpAdmin('/users', { json: { username, enabled: true, credentials: [{ type: 'password', value: password }] } });
      expect(created.status).toBe(201);
    }

    const created = await api<{ id: string }>('/tests', { json: { name: 'loopback probe', tool: 'custom', script: attackScript() } });
    expect(created.status).toBe(201);
    // No machine named: the first workspace's online machine, the local agent, takes it once it is up.
    const task = await api<{ id: string }>('/tasks', { json: { testId: created.body.id } });
    expect(task.status).toBe(202);
    const stream = await fetch(`${service.url}/api/v1/tasks/${task.body.id}/log-stream?after=0`, { headers: { authorization: `Bearer ${admin}` } });
    const { events } = await readSse(stream, (seen) => seen.at(-1)?.data.type === 'done');
    log = events.filter((event) => event.data.type === 'log').map((event) => String(event.data.text));
    const done = events.at(-1)?.data as { type: string; task?: { status: string } };
    if (done?.task?.status !== 'completed') {
      throw new Error(`the script did not complete (${JSON.stringify(done)}):\n${log.join('\n')}\n--- service output ---\n${service.output()}`);
    }
    expect(service.output()).toContain('tools run in a sandbox');
  }, 180_000);

  afterAll(async () => {
    await service?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const line = (prefix: string) => log.find((entry) => entry.startsWith(prefix)) ?? `(no line ${prefix} in:\n${log.join('\n')})`;

  test('GET /metrics answers the script 401; the generated token in DATA_DIR is out of its reach, the operator\'s to use', async () => {
    expect(line('METRICS ')).toBe('METRICS 401 Bearer');
    expect(line('TOKEN-FILE ')).toStartWith('TOKEN-FILE DENIED ');
    const token = (await readFile(join(dataDir, 'metrics-token'), 'utf8')).trim();
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(log.join('\n')).not.toContain(token);
    // From this process, on the same loopback: nothing without the token either; the token opens it.
    expect((await fetch(`${service.url}/metrics`)).status).toBe(401);
    const scraped = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('loadplane_runs{status="completed"}');
  });

  test('the guessed names get their own account limit: 10 checked, then locked; 15 further names are still checked', () => {
    // Keycloak's arithmetic, unchanged: the 11th guess at one name is refused as the account's lock, not counted.
    expect(line('RESULT victim2 ')).toBe('RESULT victim2 account-locked=30 invalid=10');
    expect(line('RESULT random-name ')).toBe('RESULT random-name account-locked=30 invalid=10');
    // Past 30 failures the address is throttled, yet names that had not failed from it are checked (not a lock).
    expect(line('RESULT spray ')).toBe('RESULT spray invalid=15');
    // A name that did fail from the throttled address is refused before any check.
    expect(line('RESULT spray-again ')).toBe('RESULT spray-again throttled=2');
    // The script's last line (the agent may write a progress line after it while the sandbox winds down).
    expect(scriptLines(log).at(-1)).toBe('ATTACK DONE');
  });

  test('from the same loopback, the admin and another user still sign in; the script\'s names stay throttled', async () => {
    // The throttle is on: a name the script tried is refused from here too.
    const sprayed = line('SPRAYED ').split(' ')[1]!;
    const throttled = await grant(sprayed, 'anything');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    // Before, the address lock refused these with the same 429: one script locked every local user out.
    const signedIn = await grant('admin', adminPassword);
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { access_token: string }).access_token).toBeString();
    const form = await formSignIn('bystander', BYSTANDER_PASSWORD);
    expect(form.status).toBe(302);
    expect(form.headers.get('location')).toStartWith(`${service.url}/callback?code=`);
  });

  test('victim2 carries exactly its account limit\'s failures; once an admin clears them, victim2 signs in from loopback', async () => {
    const users = (await (await idpAdmin(`/users?username=victim2&exact=true`)).json()) as { id: string }[];
    const state = await (await idpAdmin(`/attack-detection/brute-force/users/${users[0]!.id}`)).json();
    // 40 guesses, 10 counted: the refused ones cost no hashing and added nothing.
    expect(state).toMatchObject({ numFailures: 10, lastIPFailure: '127.0.0.1' });
    expect((await idpAdmin(`/attack-detection/brute-force/users/${users[0]!.id}`, { method: 'DELETE' })).status).toBe(204);
    // Cleared for every address too: the loopback throttle no longer refuses victim2.
    expect((await grant('victim2', VICTIM_PASSWORD)).status).toBe(200);
  });
});
