/** Boots the real service as a process for a benchmark and fills its workspace with 100 k6 tests. */
import { passwordGrant, startServiceProcess } from '../tests/helpers/service-process.ts';
import { k6Script } from './k6-script.ts';

export const testCount = 100;

export interface BenchSettings {
  duration: string;
  warmup: string;
  threads: number;
  connections: number;
}

const random = () => crypto.randomUUID().replaceAll('-', '');

/** Boots the service, fills the workspace with 100 k6 tests and checks the list answers all of them. */
export async function startFilledService(env: Record<string, string>, credentials?: { username: string; password: string }) {
  const username = credentials?.username ?? 'admin';
  const password = credentials?.password ?? `bench-${random()}`;
  const clientSecret = env.AUTH_CLIENT_SECRET ?? `bench-${random()}`;
  const service = await startServiceProcess({
    env: {
      LOCAL_AGENT: 'false',
      LOG_LEVEL: 'warn',
      AUTH_CLIENT_SECRET: clientSecret,
      ...(env.AUTH_URL ? {} : { BOOTSTRAP_ADMIN_USERNAME: username, BOOTSTRAP_ADMIN_PASSWORD: password }),
      ...env,
    },
    timeoutMs: 120_000,
  });
  try {
    // passwordGrant appends /auth/realms/...: the IdP's origin, this service's own unless AUTH_URL names another.
    const idpOrigin = env.AUTH_URL ? env.AUTH_URL.replace(/\/auth$/, '') : service.url;
    /** A fresh access token (they live 5 minutes): one per wrk run, so a long run never meets an expired one. */
    const token = () => passwordGrant(idpOrigin, { username, password, clientSecret });
    /** The list's JSON exactly as the service answered it (about 200 KB). */
    const listBody = await fillWorkspace(service.url, await token());
    return { service, token, listBody };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

async function fillWorkspace(url: string, token: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (let i = 0; i < testCount; i++) {
    const response = await fetch(`${url}/api/v1/tests`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `k6 ${i}: ${['smoke', 'load', 'stress', 'soak', 'spike'][i % 5]}`, tool: 'k6', script: k6Script(i), status: 'active' }),
    });
    if (response.status !== 201) throw new Error(`creating test ${i}: ${response.status} ${await response.text()}`);
  }
  const list = await fetch(`${url}/api/v1/tests`, { headers });
  const body = await list.text();
  const items = list.status === 200 ? (JSON.parse(body) as unknown[]) : [];
  if (items.length !== testCount) {
    throw new Error(`GET /api/v1/tests answered ${list.status} with ${items.length} items; expected 200 with ${testCount}: ${body.slice(0, 300)}`);
  }
  const one = await fetch(`${url}/api/v1/tests?limit=1`, { headers });
  if (one.status !== 200 || ((await one.json()) as unknown[]).length !== 1) throw new Error('GET /api/v1/tests?limit=1 did not answer one item');
  console.error(`  ${testCount} tests created; the list answers ${items.length} items, ${body.length} bytes`);
  return body;
}

