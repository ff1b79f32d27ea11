/**
 * A real git server for tests: bare repositories under a temporary root, served over smart HTTP by git's own CGI
 * (`git http-backend`) behind a few lines of Bun.serve, on loopback. Optional HTTP basic auth. The repositories are
 * made and changed with the real git command line.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const backend = '/usr/lib/git-core/git-http-backend';

export interface GitHttpServer {
  /** http://127.0.0.1:port */
  origin: string;
  /** The URL of repository `name` (`name.git` under the root). */
  url(name: string): string;
  /** Creates (or replaces the files of) repository `name` on `branch` with one commit; returns the commit id. */
  commit(name: string, files: Record<string, string | Uint8Array | null>, options?: { branch?: string; message?: string }): Promise<string>;
  /** Requests answered so far (method and path), for checks on what the client asked. */
  requests: string[];
  stop(): Promise<void>;
}

async function git(args: string[], cwd: string): Promise<string> {
  const proc = Bun.spawn(['git', ...args], {
    cwd,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.test' },
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`git ${args.join(' ')}: ${err}`);
  return out.trim();
}

export async function startGitHttpServer(options: { auth?: { username: string; password: string } } = {}): Promise<GitHttpServer> {
  const root = await mkdtemp(join(tmpdir(), 'loadplane-git-server-'));
  const work = join(root, '.work');
  await mkdir(work);
  const requests: string[] = [];
  const expected = options.auth ? `Basic ${btoa(`${options.auth.username}:${options.auth.password}`)}` : null;

  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const url = new URL(request.url);
      requests.push(`${request.method} ${url.pathname}`);
      if (expected && request.headers.get('authorization') !== expected) {
        return new Response('authentication required', { status: 401, headers: { 'www-authenticate': 'Basic realm="git"' } });
      }
      const body = new Uint8Array(await request.arrayBuffer());
      const proc = Bun.spawn([backend], {
        stdin: new Blob([body]),
        stdout: 'pipe',
        stderr: 'pipe',
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          GIT_PROJECT_ROOT: root,
          GIT_HTTP_EXPORT_ALL: '1',
          PATH_INFO: url.pathname,
          QUERY_STRING: url.search.slice(1),
          REQUEST_METHOD: request.method,
          CONTENT_TYPE: request.headers.get('content-type') ?? '',
          CONTENT_LENGTH: String(body.byteLength),
          HTTP_CONTENT_ENCODING: request.headers.get('content-encoding') ?? '',
          GIT_PROTOCOL: request.headers.get('git-protocol') ?? '',
          REMOTE_ADDR: '127.0.0.1',
        },
      });
      const out = new Uint8Array(await new Response(proc.stdout).arrayBuffer());
      await proc.exited;
      // CGI: headers, a blank line, the body.
      let split = -1;
      for (let i = 0; i + 3 < out.length; i++) {
        if (out[i] === 13 && out[i + 1] === 10 && out[i + 2] === 13 && out[i + 3] === 10) {
          split = i;
          break;
        }
      }
      if (split < 0) return new Response('bad CGI answer', { status: 500 });
      const headers = new Headers();
      let status = 200;
      for (const line of new TextDecoder().decode(out.subarray(0, split)).split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else headers.append(name, value);
      }
      return new Response(out.subarray(split + 4), { status, headers });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;

  return {
    origin,
    requests,
    url: (name) => `${origin}/${name}.git`,
    async commit(name, files, commitOptions = {}) {
      const branch = commitOptions.branch ?? 'main';
      const bare = join(root, `${name}.git`);
      const checkout = join(work, name);
      if (!(await Bun.file(join(bare, 'HEAD')).exists())) {
        await git(['init', '--bare', '--quiet', '--initial-branch', branch, bare], root);
        await git(['init', '--quiet', '--initial-branch', branch, checkout], root);
        await git(['remote', 'add', 'origin', bare], checkout);
      }
      const branches = await git(['branch', '--list', branch], checkout);
      const remote = await git(['ls-remote', '--heads', 'origin', branch], checkout);
      if (remote) {
        await git(['fetch', '--quiet', 'origin', branch], checkout);
        await git(['checkout', '--quiet', '-B', branch, `origin/${branch}`], checkout);
      } else if (branches) {
        await git(['checkout', '--quiet', branch], checkout);
      } else if ((await git(['symbolic-ref', '--short', 'HEAD'], checkout)) !== branch) {
        await git(['checkout', '--quiet', '--orphan', branch], checkout);
        await git(['rm', '-rf', '--quiet', '--ignore-unmatch', '.'], checkout);
      }
      for (const [path, content] of Object.entries(files)) {
        const full = join(checkout, path);
        if (content === null) {
          await git(['rm', '--quiet', path], checkout);
          continue;
        }
        await mkdir(dirname(full), { recursive: true });
        await writeFile(full, content);
      }
      await git(['add', '-A'], checkout);
      await git(['commit', '--quiet', '--allow-empty', '-m', commitOptions.message ?? 'update'], checkout);
      await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], checkout);
      return git(['rev-parse', 'HEAD'], checkout);
    },
    async stop() {
      server.stop(true);
      await rm(root, { recursive: true, force: true });
    },
  };
}
