/** AGENT_TOKEN_FILE's token on PGlite and PostgreSQL: written once, kept while live, replaced when not, one writer among replicas. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openDatabase } from '../../../adapters/db/open-database.ts';
import { postgresOrSkip } from '../../../tests/helpers/postgres-server.ts';
import { hasValidChecksum, hashApiToken } from '../../domain/api-token-format.ts';
import { coreEntities } from '../../domain/entities/index.ts';
import { coreMigrations } from '../../domain/migrations/index.ts';
import type { Database } from '../../ports/database.ts';
import { ensureBootstrapWorkspace } from '../bootstrap-workspace.ts';
import { sqlOf } from '../sql.ts';
import { type AgentTokenFile, bootstrapAgentAccount, keepBootstrapAgentToken } from './bootstrap-agent-token.ts';

/** A file in memory, shared by the "replicas" that get it, as compose's volume is. */
function memoryFile(text: string | null = null): AgentTokenFile & { text: string | null } {
  return {
    text,
    async read() {
      return this.text;
    },
    async write(token) {
      this.text = `${token}\n`;
    },
  };
}

function suite(kind: 'pglite' | 'postgresql') {
  let db: (Database & { close(): Promise<void> }) | null = null;
  let stopServer = async () => {};
  let workspaceId = '';

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (kind === 'postgresql') {
      const server = await postgresOrSkip();
      if (!server) return;
      stopServer = () => server.stop();
      databaseUrl = server.url;
    }
    db = await openDatabase({ entities: coreEntities, migrations: coreMigrations, databaseUrl });
    workspaceId = (await ensureBootstrapWorkspace(db, 'admin')).id;
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    await stopServer();
  });

  const skipped = () => db === null;
  /** The account's live tokens: there must only ever be one, the file's. */
  const liveTokens = () =>
    sqlOf(db!).all<{ secret_hash: string; scopes: string[]; workspace_id: string }>(
      `select t.secret_hash, t.scopes, t.workspace_id from api_tokens t join user_profiles u on u.id = t.user_id
        where u.subject = ? and t.revoked_at is null`,
      [bootstrapAgentAccount.subject],
    );
  const hashOf = async (file: { text: string | null }) => hashApiToken(file.text!.trim());

  test('the first start writes a token of the first workspace for agents; later starts keep it', async () => {
    if (skipped()) return;
    const file = memoryFile();
    expect(await keepBootstrapAgentToken(db!, workspaceId, file)).toBe('written');
    expect(hasValidChecksum(file.text!.trim())).toBe(true);
    const written = file.text;
    expect(await liveTokens()).toEqual([{ secret_hash: await hashOf(file), scopes: ['machines:write', 'runs:write'], workspace_id: workspaceId }]);
    const [membership] = await sqlOf(db!).all<{ role: string }>(
      'select m.role from memberships m join user_profiles u on u.id = m.user_id where u.subject = ? and m.workspace_id = ?',
      [bootstrapAgentAccount.subject, workspaceId],
    );
    expect(membership).toEqual({ role: 'admin' });

    expect(await keepBootstrapAgentToken(db!, workspaceId, file)).toBe('kept');
    expect(file.text).toBe(written);
    expect((await liveTokens()).length).toBe(1);
  });

  test('a file without a live token (deleted to rotate it, edited, revoked) gets a new one; the old ones are revoked', async () => {
    if (skipped()) return;
    const file = memoryFile();
    await keepBootstrapAgentToken(db!, workspaceId, file);
    const first = file.text;
    file.text = null;
    expect(await keepBootstrapAgentToken(db!, workspaceId, file)).toBe('written');
    expect(file.text).not.toBe(first);
    expect(await liveTokens()).toEqual([expect.objectContaining({ secret_hash: await hashOf(file) })]);

    file.text = 'not a token\n';
    expect(await keepBootstrapAgentToken(db!, workspaceId, file)).toBe('written');
    await sqlOf(db!).all('update api_tokens set revoked_at = now() where secret_hash = ?', [await hashOf(file)]);
    expect(await keepBootstrapAgentToken(db!, workspaceId, file)).toBe('written');
    expect(await liveTokens()).toEqual([expect.objectContaining({ secret_hash: await hashOf(file) })]);
  });

  test('replicas starting at once on one file: one writes, the others keep what it wrote', async () => {
    if (skipped()) return;
    const file = memoryFile();
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => keepBootstrapAgentToken(db!, workspaceId, file)));
    expect(outcomes.filter((outcome) => outcome === 'written').length).toBe(1);
    expect(await liveTokens()).toEqual([expect.objectContaining({ secret_hash: await hashOf(file) })]);
  });

  test('a file that cannot be written leaves no token and the live one alone', async () => {
    if (skipped()) return;
    const file = memoryFile();
    await keepBootstrapAgentToken(db!, workspaceId, file);
    const before = await liveTokens();
    const readOnly: AgentTokenFile = {
      read: async () => null,
      write: async () => {
        throw new Error('EROFS: read-only file system');
      },
    };
    await expect(keepBootstrapAgentToken(db!, workspaceId, readOnly)).rejects.toThrow('EROFS');
    expect(await liveTokens()).toEqual(before);
  });
}

describe('keepBootstrapAgentToken on PGlite', () => suite('pglite'));
describe('keepBootstrapAgentToken on PostgreSQL', () => suite('postgresql'));
