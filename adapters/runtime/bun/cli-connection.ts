/**
 * Where a `loadplane` command finds the service and its token: `--server` or `LOADPLANE_URL` (`LOADPLANE_SERVER`, the
 * older name, still works), and `--token-file` or `LOADPLANE_TOKEN`. A token on the command line (`--token`) still works
 * but is shown to every user of the machine by `ps` (and echoed by npm), so it costs a warning.
 */
import { readFileSync, statSync } from 'node:fs';

/** A refusal in words for the person at the terminal (the command exits 2 with it and its usage). */
export class UsageError extends Error {}

export interface ConnectionFlags {
  server?: string;
  token?: string;
  tokenFile?: string;
}

export interface Connection {
  server: string;
  token: string;
  /** Said once on stderr before the command starts (the `--token` warning). */
  warnings: string[];
}

/** The token in `path`: its first line, trimmed. A file others may read is refused, as ssh refuses such a key. */
export function readTokenFile(path: string): string {
  let text: string;
  try {
    // Other users get no access at all; its group may read it (a service's group often must).
    if ((statSync(path).mode & 0o007) !== 0) {
      throw new UsageError(`the token file ${path} can be read by every user of this machine; make it private: chmod 600 ${path}`);
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read the token file ${path}: ${(error as Error).message}`);
  }
  const token = text.split('\n')[0]!.trim();
  if (!token) throw new UsageError(`the token file ${path} is empty`);
  return token;
}

export function resolveConnection(flags: ConnectionFlags, env: Record<string, string | undefined>): Connection {
  const warnings: string[] = [];
  const server = (flags.server ?? env.LOADPLANE_URL ?? env.LOADPLANE_SERVER ?? '').trim();
  if (!server) throw new UsageError('no service address: set LOADPLANE_URL (or pass --server URL)');
  if (!/^https?:\/\/[^/\s]+/.test(server)) throw new UsageError(`the service address must be an http or https URL, got "${server}"`);
  if (flags.token !== undefined && flags.tokenFile !== undefined) throw new UsageError('give --token-file or --token, not both');
  let token: string;
  if (flags.tokenFile !== undefined) {
    token = readTokenFile(flags.tokenFile);
  } else if (flags.token !== undefined) {
    token = flags.token.trim();
    warnings.push(
      'warning: a token on the command line can be read by every user of this machine (ps, /proc) and is echoed by npm; ' +
        'set LOADPLANE_TOKEN or use --token-file FILE instead',
    );
  } else {
    token = (env.LOADPLANE_TOKEN ?? '').trim();
    if (!token) throw new UsageError('no token: set LOADPLANE_TOKEN, or pass --token-file FILE (mode 600)');
  }
  if (!token.startsWith('psk_')) throw new UsageError('the token must be an API token (psk_...)');
  return { server: server.replace(/\/+$/, ''), token, warnings };
}
