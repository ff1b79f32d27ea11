/**
 * What compose.yaml promises that a native run cannot show (tests/integration/compose-topology.test.ts runs the rest):
 * a healthcheck on every service, the agent's sandbox allowed by the documented security_opt and nothing more, its
 * token never on a command line, its machine key on a volume, its network apart from the database's, and images that
 * run their program under compose's init with nothing in between. The file is valid for docker-compose 1.29 too.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ComposeService, mountsOf, readComposeFile } from '../helpers/compose-file.ts';
import { requireOrSkip } from '../helpers/k6-binary.ts';
import { repoRoot } from '../helpers/service-process.ts';

const compose = readComposeFile();
const services = compose.services;
const agent = services.agent!;
const server = services.loadplane!;
const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');

/** The named volume that holds `path` in `service`, with the mount. */
function volumeHolding(service: ComposeService, path: string) {
  return mountsOf(service).find((mount) => mount.named && (path === mount.target || path.startsWith(`${mount.target}/`)));
}

describe('compose.yaml', () => {
  test('every service has a healthcheck, and every dependency waits for it', () => {
    for (const [name, service] of Object.entries(services)) {
      expect({ name, test: (service.healthcheck?.test?.length ?? 0) > 1, disabled: service.healthcheck?.disable ?? false }).toEqual({ name, test: true, disabled: false });
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, dependency, condition }).toEqual({ name, dependency, condition: 'service_healthy' });
      }
    }
    expect(agent.healthcheck!.test).toEqual(['CMD', 'loadplane', 'agent', '--health']);
    expect(Object.keys(agent.depends_on ?? {})).toEqual(['loadplane']);
  });

  test("the agent's sandbox: Docker's profiles lifted as documented, no capability, no privilege, an unprivileged user", () => {
    expect([...agent.security_opt!].sort()).toEqual(['apparmor=unconfined', 'seccomp=unconfined', 'systempaths=unconfined']);
    expect(agent.privileged ?? false).toBe(false);
    expect(agent.cap_add ?? []).toEqual([]);
    expect(agent.user).toBeUndefined();
    expect(agent.environment!.AGENT_SANDBOX).toBe('on');
    const dockerfile = read(agent.build!.dockerfile!);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/apt-get install -y --no-install-recommends bubblewrap/);
    // The server runs no tool: its local agent is off, so no script runs beside its secrets.
    expect(server.environment!.LOCAL_AGENT).toBe('false');
    expect(server.security_opt).toBeUndefined();
  });

  test('the agent token is never on a command line: the service writes it into a volume the agent reads', () => {
    const argv = [...(agent.entrypoint ?? []), ...(agent.command ?? [])];
    expect(JSON.stringify(agent)).not.toContain('psk_');
    expect(argv).not.toContain('--token');
    expect(agent.environment!.LOADPLANE_TOKEN).toBeUndefined();
    const tokenFile = argv[argv.indexOf('--token-file') + 1]!;
    const agentMount = volumeHolding(agent, tokenFile)!;
    expect(agentMount).toMatchObject({ readOnly: true });
    // The same file the service writes, through the same named volume (there read-write).
    const written = server.environment!.AGENT_TOKEN_FILE!;
    const serverMount = volumeHolding(server, written)!;
    expect(serverMount).toMatchObject({ source: agentMount.source, readOnly: false });
    expect(written.slice(serverMount.target.length)).toBe(tokenFile.slice(agentMount.target.length));
    // A named volume the image creates for `node` alone, so it starts with that owner and mode.
    expect(read('Dockerfile')).toMatch(new RegExp(`install -d -o node -g node -m 700 ${serverMount.target}`));
  });

  test("the agent's state directory (its machine key) is on a named volume, so re-creating the container keeps the machine", () => {
    const stateDir = agent.environment!.AGENT_STATE_DIR!;
    expect(volumeHolding(agent, stateDir)).toMatchObject({ readOnly: false });
    expect(Object.keys(compose.volumes)).toContain(volumeHolding(agent, stateDir)!.source);
    expect(agent.hostname).toBeTruthy();
    expect(agent.environment!.LOADPLANE_URL).toBe(`http://loadplane:${server.environment!.PORT}`);
  });

  test("scripts in the agent's sandbox cannot reach the database or Keycloak's back channel: another network", () => {
    const agentNetworks = new Set(agent.networks);
    for (const name of ['postgres', 'keycloak']) {
      expect({ name, shared: services[name]!.networks!.filter((network) => agentNetworks.has(network)) }).toEqual({ name, shared: [] });
    }
    expect(server.networks!.filter((network) => agentNetworks.has(network)).length).toBeGreaterThan(0);
    expect(agent.ports).toBeUndefined();
  });

  test('graceful shutdown: an init passes SIGTERM straight to the program, which has the 10 s compose gives it', () => {
    for (const service of [server, agent]) {
      expect(service.init).toBe(true);
      expect(service.stop_grace_period).toBe('10s');
    }
    expect(read('Dockerfile')).toContain('CMD ["node_modules/.bin/bun", "adapters/runtime/bun/main.ts"]');
    const agentDockerfile = read(agent.build!.dockerfile!);
    expect(agentDockerfile).toContain('ENTRYPOINT ["loadplane"]');
    for (const dockerfile of [read('Dockerfile'), agentDockerfile]) expect(dockerfile).not.toMatch(/^(CMD|ENTRYPOINT) \["?(npm|sh|bash)/m);
  });

  test('the agent image has every engine by default (LOADPLANE_ENGINES picks fewer), the service image none', () => {
    expect(agent.build!.args!.ENGINES).toBe('all');
    expect(read('compose.yaml')).toMatch(/ENGINES: \$\{LOADPLANE_ENGINES:-all\}/);
    const agentDockerfile = read(agent.build!.dockerfile!);
    expect(agentDockerfile).toContain('ARG ENGINES=all');
    expect(agentDockerfile).toMatch(/RUN bash scripts\/container-engines\.sh --slim "\$ENGINES" node/);
    expect(server.build!.args).toBeUndefined();
  });

  test("the services agree with each other: the database's credentials, Keycloak's client secret, issuer and realm file", () => {
    const postgres = services.postgres!.environment!;
    const database = new URL(server.environment!.DATABASE_URL!);
    expect({ host: database.hostname, user: database.username, password: database.password, db: database.pathname.slice(1) }).toEqual({
      host: 'postgres',
      user: postgres.POSTGRES_USER!,
      password: postgres.POSTGRES_PASSWORD!,
      db: postgres.POSTGRES_DB!,
    });
    const keycloak = services.keycloak!;
    const realm = JSON.parse(read('config/keycloak/loadplane-realm.json')) as { realm: string; clients: { clientId: string; secret?: string }[] };
    expect(server.environment!.AUTH_REALM).toBe(realm.realm);
    expect(realm.clients.find((client) => client.clientId === server.environment!.AUTH_CLIENT_ID)?.secret).toBe(server.environment!.AUTH_CLIENT_SECRET!);
    expect(server.environment!.AUTH_URL).toBe(`http://keycloak:${keycloak.environment!.KC_HTTP_PORT}`);
    expect(server.environment!.AUTH_ISSUER).toBe(`${keycloak.environment!.KC_HOSTNAME}/realms/${realm.realm}`);
    expect(mountsOf(keycloak).map((mount) => mount.source)).toContain('./config/keycloak/loadplane-realm.json');
  });

  test('variables fall back to their defaults, and what they change is taken up', () => {
    const custom = readComposeFile({ LOADPLANE_ENGINES: 'k6 locust', POSTGRES_PASSWORD: 's3cret', KEYCLOAK_PUBLIC_URL: 'https://id.example.com' });
    expect(custom.services.agent!.build!.args!.ENGINES).toBe('k6 locust');
    expect(custom.services.loadplane!.environment!.DATABASE_URL).toBe('postgres://loadplane:s3cret@postgres:5432/loadplane');
    expect(custom.services.loadplane!.environment!.AUTH_ISSUER).toBe('https://id.example.com/realms/loadplane');
    // An empty value is unset for `:-`: compose's own rule.
    expect(readComposeFile({ LOADPLANE_ENGINES: '' }).services.agent!.build!.args!.ENGINES).toBe('all');
  });

  test('docker-compose 1.29 (Debian) accepts the file', () => {
    const found = Bun.which('docker-compose');
    if (!requireOrSkip(found ? null : 'docker-compose is not installed (apt-get install docker-compose)', 'the compose file check')) return;
    const checked = Bun.spawnSync([found!, '-f', 'compose.yaml', 'config', '-q'], { cwd: repoRoot, stdout: 'pipe', stderr: 'pipe' });
    expect({ code: checked.exitCode, stderr: checked.stderr.toString() }).toEqual({ code: 0, stderr: '' });
  });
});
