/**
 * scripts/container-engines.sh (the Dockerfile's ENGINES build arg) knows every engine scripts/install-engines
 * installs, refuses a name it does not know before touching the system, and the Dockerfiles and compose.yaml pass the
 * build arg through. Installing for real needs root and apt; .ci/run's engine setup and the README cover that path.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '../..');
const script = join(root, 'scripts/container-engines.sh');
const run = (...args: string[]) => Bun.spawnSync(['bash', script, ...args], { stdout: 'pipe', stderr: 'pipe' });

describe('scripts/container-engines.sh', () => {
  test('names every engine scripts/install-engines has, and "all" the six tools but custom', () => {
    const text = readFileSync(script, 'utf8');
    const installable = readdirSync(join(root, 'scripts/engines')).filter((f) => f.endsWith('.sh')).map((f) => f.slice(0, -3));
    const cases = [...text.matchAll(/^\s+([a-z0-9| ]+)\)/gm)].flatMap((m) => m[1]!.split('|').map((s) => s.trim())).filter((s) => s !== '*');
    expect(cases.sort()).toEqual(installable.sort());
    expect(/engines="([^"]+)"/.exec(text)![1]!.split(' ').sort()).toEqual(['artillery', 'gatling', 'jmeter', 'k6', 'locust']);
  });

  test('nothing requested: exits 0 and says the agent offers custom only; an unknown engine: exit 2 before any install', () => {
    const none = run('--slim', '', 'root');
    expect(none.exitCode).toBe(0);
    expect(none.stdout.toString()).toContain('the agent offers custom only');
    const unknown = run('k6 wrk', 'root');
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr.toString()).toContain("unknown engine 'wrk'");
    expect(unknown.stdout.toString()).not.toContain('installed');
  });

  test('both Dockerfiles hand their ENGINES build arg to the script (the agent image: all by default); compose.yaml sets the agent\'s from LOADPLANE_ENGINES', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('ARG ENGINES=""');
    expect(dockerfile).toMatch(/RUN bash scripts\/container-engines\.sh --slim "\$ENGINES" node/);
    const agentDockerfile = readFileSync(join(root, 'agent.Dockerfile'), 'utf8');
    expect(agentDockerfile).toContain('ARG ENGINES=all');
    expect(agentDockerfile).toMatch(/RUN bash scripts\/container-engines\.sh --slim "\$ENGINES" node/);
    expect(readFileSync(join(root, 'compose.yaml'), 'utf8')).toMatch(/ENGINES: \$\{LOADPLANE_ENGINES:-all\}/);
  });

  test('the image runs bun itself (SIGTERM reaches the service), compose adds an init and keeps Keycloak\'s data', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain('CMD ["node_modules/.bin/bun", "adapters/runtime/bun/main.ts"]');
    expect(dockerfile).not.toMatch(/CMD \["npm"/);
    const compose = readFileSync(join(root, 'compose.yaml'), 'utf8');
    expect(compose).toMatch(/init: true/);
    expect(compose).toMatch(/- keycloak-data:\/opt\/keycloak\/data\/h2/);
  });
});
