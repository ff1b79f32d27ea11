/**
 * What `loadplane run` is given by people, turned into ids: a test by id or exact name, a load configuration by id or
 * name, machines by id or hostname. An unknown or ambiguous name is a usage error naming what there is to choose.
 */
import { type RestClient, RestError } from '../../../../plugins/mcp/rest-client.ts';
import { UsageError } from '../cli-connection.ts';
import type { TestRecord } from './run-types.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const looksLikeId = (value: string) => uuidPattern.test(value);

/** Every item of a paged list (`?limit=1000`, `X-Next-Cursor`). */
export async function listAll<T>(client: RestClient, path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: T[]; next_cursor: string | null } = await client.page<T>(path, { limit: 1000, cursor });
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

const quoteList = (values: readonly string[]) => values.map((value) => `"${value}"`).join(', ');

/** A test by its id, or else by its exact name (case matters, as in the UI). */
export async function resolveTest(client: RestClient, given: string): Promise<TestRecord> {
  if (looksLikeId(given)) {
    try {
      return await client.get<TestRecord>(`/tests/${encodeURIComponent(given)}`);
    } catch (error) {
      if (!(error instanceof RestError) || error.status !== 404) throw error;
      // A name that looks like an id: looked for below.
    }
  }
  const tests = await listAll<TestRecord>(client, '/tests');
  const named = tests.filter((test) => test.name === given);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) throw new UsageError(`${named.length} tests are named "${given}": give the id of one (${named.map((test) => test.id).join(', ')})`);
  const folded = tests.filter((test) => test.name.toLowerCase() === given.toLowerCase()).map((test) => test.name);
  const hint = folded.length ? ` (did you mean ${quoteList(folded)}?)` : tests.length ? '' : ' (the workspace has no tests)';
  throw new UsageError(`no test ${looksLikeId(given) ? 'with the id or name' : 'named'} "${given}" in the token's workspace${hint}`);
}

/** A load configuration by id or exact name. */
export async function resolveConfig(client: RestClient, given: string): Promise<string> {
  if (looksLikeId(given)) return given;
  const configs = await listAll<{ id: string; name: string }>(client, '/configs');
  const named = configs.filter((config) => config.name === given);
  if (named.length === 1) return named[0]!.id;
  if (named.length > 1) throw new UsageError(`${named.length} load configurations are named "${given}": give the id of one (${named.map((c) => c.id).join(', ')})`);
  throw new UsageError(`no load configuration with the id or name "${given}"`);
}

/** Machines by id or hostname, in the order given. */
export async function resolveMachines(client: RestClient, given: readonly string[]): Promise<string[]> {
  if (given.every(looksLikeId)) return [...given];
  const machines = await listAll<{ id: string; hostname: string; name?: string }>(client, '/machines');
  return given.map((value) => {
    if (looksLikeId(value)) return value;
    const machine = machines.find((m) => m.hostname === value) ?? machines.find((m) => m.name === value);
    if (!machine) throw new UsageError(`no machine with the id or hostname "${value}" (machines: ${quoteList(machines.map((m) => m.hostname)) || 'none'})`);
    return machine.id;
  });
}
