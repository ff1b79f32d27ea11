/**
 * GitFetcher on isomorphic-git (https://isomorphic-git.org), a pure-JS git client: a shallow, single-branch clone
 * without checkout into a temporary directory, then the tree of the branch's newest commit read below the wanted
 * path. Every HTTP request goes to the address the URL guard checked (node:http(s) with a pinned `lookup`, so Host,
 * SNI and the certificate keep the URL's name), redirects are not followed, and the bytes received count against one
 * budget: a huge repository stops the fetch instead of filling memory or the disk. The directory is removed after.
 */
import http from 'node:http';
import https from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import fs from 'node:fs';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import type { GitFetcher, GitFetchRequest, GitFile } from '../../core/ports/git-fetcher.ts';

interface GitHttpRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

class FetchStopped extends Error {}

/** isomorphic-git's HTTP client, bound to one checked origin and address, a byte budget and an abort signal. */
function pinnedHttp(request: GitFetchRequest, budget: { left: number }, signal: AbortSignal) {
  const origin = request.url.origin;
  const family = request.address.includes(':') ? 6 : 4;
  const lookup = ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: request.address, family }]);
    else callback(null, request.address, family);
  }) as unknown as LookupFunction;
  return {
    async request({ url, method = 'GET', headers = {}, body }: GitHttpRequest) {
      const target = new URL(url);
      // The repository's own origin only: a reference to elsewhere would skip the guard.
      if (target.origin !== origin) throw new FetchStopped(`refused a request to ${target.origin}: only ${origin} was checked`);
      const parts: Uint8Array[] = [];
      if (body) for await (const part of body as AsyncIterable<Uint8Array>) parts.push(part);
      const payload = Buffer.concat(parts);
      const client = target.protocol === 'https:' ? https : http;
      return new Promise<{
        url: string;
        method: string;
        statusCode: number;
        statusMessage: string;
        headers: Record<string, string>;
        body: AsyncIterableIterator<Uint8Array>;
      }>((resolve, reject) => {
        const outgoing = client.request(
          target,
          { method, headers: { ...headers, 'content-length': String(payload.length) }, lookup, agent: false, signal },
          (response) => {
            const received: Buffer[] = [];
            response.on('data', (chunk: Buffer) => {
              budget.left -= chunk.length;
              if (budget.left < 0) {
                response.destroy();
                reject(new FetchStopped(`the repository is larger than ${Math.round(request.maxFetchBytes / 1024 / 1024)} MiB; narrowing path does not help, a smaller repository or branch does`));
                return;
              }
              received.push(chunk);
            });
            response.on('end', () => {
              const flat: Record<string, string> = {};
              for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
              const data = Buffer.concat(received);
              const body = (async function* () {
                yield data;
              })();
              resolve({ url, method, statusCode: response.statusCode ?? 0, statusMessage: response.statusMessage ?? '', headers: flat, body });
            });
            response.on('error', reject);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(payload);
      });
    },
  };
}

/** A git or network error in one line a user can act on. */
function describe(error: unknown, request: GitFetchRequest, timedOut: boolean): string {
  if (timedOut) return `the fetch took longer than ${Math.round(request.timeoutMillis / 1000)} s and was stopped`;
  if (error instanceof FetchStopped) return error.message;
  const e = error as { code?: string; message?: string; data?: { statusCode?: number; statusMessage?: string }; cause?: { code?: string } };
  const host = request.url.host;
  const code = e.code ?? e.cause?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return `could not connect to ${host}: connection refused`;
    case 'ECONNRESET':
      return `the connection to ${host} was reset`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `could not reach ${host} (${code})`;
    case 'HttpError': {
      const status = e.data?.statusCode ?? 0;
      if (status === 401 || status === 403) return `${host} refused access (HTTP ${status}): the repository needs credentials, or they are wrong`;
      if (status === 404) return `no git repository at ${request.url.href} (HTTP 404)`;
      if (status >= 300 && status < 400) return `${host} answered with a redirect (HTTP ${status}); use the repository's final URL`;
      return `${host} answered HTTP ${status} ${e.data?.statusMessage ?? ''}`.trim();
    }
    case 'NotFoundError':
      return `branch ${request.branch} was not found in the repository`;
    case 'SmartHttpError':
    case 'ParseError':
      return `${request.url.href} does not answer as a git repository over smart HTTP`;
  }
  return `the fetch failed: ${(e.message ?? String(error)).slice(0, 300)}`;
}

/** Reads the wanted files of the tree at `commit` below `request.path`, descending only into directories that may hold them. */
async function readFiles(dir: string, commit: string, request: GitFetchRequest) {
  const files: GitFile[] = [];
  const skipped: { path: string; reason: string }[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  async function visit(treePath: string): Promise<void> {
    let tree;
    try {
      tree = await git.readTree({ fs, dir, oid: commit, ...(treePath ? { filepath: treePath } : {}) });
    } catch (error) {
      if (treePath === request.path && (error as { code?: string }).code === 'NotFoundError') throw new FetchStopped(`path ${request.path} does not exist on branch ${request.branch}`);
      throw error;
    }
    for (const entry of tree.tree) {
      const path = treePath ? `${treePath}/${entry.path}` : entry.path;
      if (entry.type === 'tree') {
        await visit(path);
      } else if (entry.type === 'blob' && request.wanted(path)) {
        // Symbolic links (mode 120000) are blobs holding a path: not test files.
        if (entry.mode === '120000') continue;
        const { blob } = await git.readBlob({ fs, dir, oid: entry.oid });
        if (blob.byteLength > request.maxFileBytes) {
          skipped.push({ path, reason: `larger than ${request.maxFileBytes} bytes` });
          continue;
        }
        try {
          files.push({ path, content: decoder.decode(blob) });
        } catch {
          skipped.push({ path, reason: 'not UTF-8 text' });
        }
      }
    }
  }
  await visit(request.path);
  return { files, skipped };
}

export function createIsomorphicGitFetcher(options: { workRoot?: string } = {}): GitFetcher {
  return async (request) => {
    const dir = await mkdtemp(join(options.workRoot ?? tmpdir(), 'loadplane-git-'));
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, request.timeoutMillis);
    const budget = { left: request.maxFetchBytes };
    try {
      const headers: Record<string, string> = { 'user-agent': 'loadplane-git-sync' };
      if (request.credentials) {
        headers.authorization = `Basic ${Buffer.from(`${request.credentials.username}:${request.credentials.password}`).toString('base64')}`;
      }
      await git.clone({
        fs,
        http: pinnedHttp(request, budget, abort.signal),
        dir,
        url: request.url.href,
        ref: request.branch,
        singleBranch: true,
        depth: 1,
        noCheckout: true,
        noTags: true,
        headers,
      });
      if (timedOut) throw new FetchStopped('timed out');
      // The fetched branch: the remote-tracking ref is always written; the local branch only with a checkout.
      let commit = '';
      for (const ref of [`refs/remotes/origin/${request.branch}`, `refs/heads/${request.branch}`, 'HEAD']) {
        commit = await git.resolveRef({ fs, dir, ref }).catch(() => '');
        if (commit) break;
      }
      if (!commit) throw new FetchStopped(`branch ${request.branch} was not found in the repository`);
      const { files, skipped } = await readFiles(dir, commit, request);
      if (timedOut) throw new FetchStopped('timed out');
      return { ok: true, commit, files, skipped };
    } catch (error) {
      return { ok: false, error: describe(error, request, timedOut) };
    } finally {
      clearTimeout(timer);
      await rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  };
}
