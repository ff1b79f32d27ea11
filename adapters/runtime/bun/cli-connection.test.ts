/** Where `loadplane` finds the service and its token: flags over the environment, a private token file, a warned --token. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConnection, UsageError } from './cli-connection.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'loadplane-cli-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const env = { LOADPLANE_URL: 'https://lp.example/', LOADPLANE_TOKEN: 'psk_from_env' };

describe('resolveConnection', () => {
  test('the environment alone: LOADPLANE_URL (trailing slash dropped) and LOADPLANE_TOKEN, no warning', () => {
    expect(resolveConnection({}, env)).toEqual({ server: 'https://lp.example', token: 'psk_from_env', warnings: [] });
    expect(resolveConnection({}, { LOADPLANE_SERVER: 'http://old.example', LOADPLANE_TOKEN: 'psk_x' }).server).toBe('http://old.example');
  });

  test('flags win over the environment; the token file is read, its first line trimmed', async () => {
    const file = join(root, 'token');
    await writeFile(file, '  psk_from_file \n', { mode: 0o640 });
    expect(resolveConnection({ server: 'http://flag.example', tokenFile: file }, env)).toEqual({ server: 'http://flag.example', token: 'psk_from_file', warnings: [] });
  });

  test('a token file others may read, a missing one, an empty one: refused with the reason', async () => {
    const open = join(root, 'open');
    await writeFile(open, 'psk_open\n');
    await chmod(open, 0o604);
    expect(() => resolveConnection({ tokenFile: open }, env)).toThrow(`chmod 600 ${open}`);
    expect(() => resolveConnection({ tokenFile: join(root, 'missing') }, env)).toThrow('cannot read the token file');
    const empty = join(root, 'empty');
    await writeFile(empty, '\n', { mode: 0o600 });
    expect(() => resolveConnection({ tokenFile: empty }, env)).toThrow('is empty');
  });

  test('--token works, with a warning that names the alternatives', () => {
    const connection = resolveConnection({ token: 'psk_on_the_line' }, { LOADPLANE_URL: 'http://x.example' });
    expect(connection.token).toBe('psk_on_the_line');
    expect(connection.warnings).toEqual([expect.stringContaining('set LOADPLANE_TOKEN or use --token-file FILE instead')]);
  });

  test('what is missing or wrong is a usage error naming the way', () => {
    expect(() => resolveConnection({}, { LOADPLANE_TOKEN: 'psk_x' })).toThrow('set LOADPLANE_URL');
    expect(() => resolveConnection({}, { LOADPLANE_URL: 'http://x.example' })).toThrow('set LOADPLANE_TOKEN');
    expect(() => resolveConnection({ server: 'ftp://x' }, env)).toThrow(UsageError);
    expect(() => resolveConnection({}, { ...env, LOADPLANE_TOKEN: 'not-a-token' })).toThrow('psk_');
    expect(() => resolveConnection({ token: 'psk_a', tokenFile: '/x' }, env)).toThrow('not both');
  });
});
