/** list_tests, get_test, write_test and validate_test: test definitions (a script and the tool that runs it). */
import { Type } from '@sinclair/typebox';
import { RestError, type RestClient } from '../rest-client.ts';
import { stepArgs, type StepsInput, stepsScript } from '../steps-script.ts';
import { defineTool } from '../tool-registry.ts';
import { DryRun, dryRun } from './dry-run.ts';
import { newestFirst, Nullable, pageArgs, pageOf } from '../paging.ts';

interface TestAnswer {
  id: string;
  name: string;
  tool: string;
  status: string;
  script: string;
  created_at: string;
  updated_at: string;
}

const encoder = new TextEncoder();
/** What POST /tests takes at most (UTF-8). */
const maxScriptBytes = 1024 * 1024;
/** get_test hands out a script whole up to this many characters; a longer one is cut and says so. */
export const maxScriptChars = 200_000;
const previewChars = 300;

const Status = Type.Union([Type.Literal('draft'), Type.Literal('active'), Type.Literal('archived')], { description: 'draft (default), active or archived' });
const ToolId = Type.String({ minLength: 1, description: 'k6, jmeter, locust, artillery, gatling, custom, http, or a tool plugin of the service' });

const TestSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  tool: Type.String(),
  status: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  script_bytes: Type.Integer({ description: 'size of the script, bytes (UTF-8)' }),
  script_preview: Type.String({ description: `the script's first ${previewChars} characters; get_test has it whole` }),
});

const summaryOf = (test: TestAnswer) => ({
  id: test.id,
  name: test.name,
  tool: test.tool,
  status: test.status,
  created_at: test.created_at,
  updated_at: test.updated_at,
  script_bytes: encoder.encode(test.script).byteLength,
  script_preview: test.script.slice(0, previewChars),
});

/** Pages scanned at most for one test, while REST has no GET /tests/{id}. */
const scanPages = 50;

/** A test by id: GET /tests/{id} where the service has it, else (405: the path has only PATCH and DELETE) the list. */
async function findTest(rest: RestClient, testId: string): Promise<TestAnswer> {
  try {
    return await rest.get<TestAnswer>(`/tests/${encodeURIComponent(testId)}`);
  } catch (error) {
    if (!(error instanceof RestError) || error.status !== 405) throw error;
  }
  let cursor: string | null = null;
  for (let page = 0; page < scanPages; page++) {
    const listed: { items: TestAnswer[]; next_cursor: string | null } = await rest.page<TestAnswer>('/tests', { limit: 100, cursor });
    const found = listed.items.find((test) => test.id === testId);
    if (found) return found;
    if (!listed.next_cursor) break;
    cursor = listed.next_cursor;
  }
  throw new RestError(404, 'not_found', `no test ${testId} in this workspace`);
}

export const listTests = defineTool({
  name: 'list_tests',
  title: 'List tests',
  description:
    'Test definitions of the workspace: id, name, tool (k6, jmeter, locust, artillery, gatling, custom, http), status (draft, active, ' +
    `archived), timestamps, the script's size and its first lines. ${newestFirst} get_test gives one test's whole script; run_test starts one.`,
  input: Type.Object(pageArgs, { additionalProperties: false }),
  output: pageOf(TestSummary),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run({ limit, cursor }, { rest }) {
    const page = await rest.page<TestAnswer>('/tests', { limit, cursor });
    return { items: page.items.map(summaryOf), next_cursor: page.next_cursor };
  },
});

export const getTest = defineTool({
  name: 'get_test',
  title: 'Get a test',
  description:
    `One test definition with its whole script (cut at ${maxScriptChars} characters, with script_truncated true, when longer): name, tool, ` +
    'status, timestamps. The script formats of each tool are resources of this server (loadplane://script-formats/<tool>).',
  input: Type.Object({ test_id: Type.String({ minLength: 1, description: 'the test id' }) }, { additionalProperties: false }),
  output: Type.Object({ test: Type.Composite([TestSummary, Type.Object({ script: Type.String(), script_truncated: Type.Boolean() })]) }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run({ test_id }, { rest }) {
    const test = await findTest(rest, test_id);
    return { test: { ...summaryOf(test), script: test.script.slice(0, maxScriptChars), script_truncated: test.script.length > maxScriptChars } };
  },
});

/** The script a write or a check is about: the one given, or the http script of the steps given. */
function scriptOf(args: { tool?: string; script?: string } & Partial<StepsInput>): { tool: string | undefined; script: string | undefined } {
  if (args.script !== undefined && args.steps) throw new RestError(400, 'bad_request', 'give script or steps, not both');
  if (!args.steps) {
    if (args.base_url !== undefined || args.headers !== undefined) throw new RestError(400, 'bad_request', 'base_url and headers go with steps');
    return { tool: args.tool, script: args.script };
  }
  if (args.tool !== undefined && args.tool !== 'http') throw new RestError(400, 'bad_request', `steps make an http test, not a ${args.tool} test; leave tool out or set it to http`);
  return { tool: 'http', script: stepsScript({ steps: args.steps, base_url: args.base_url, headers: args.headers }) };
}

export const writeTest = defineTool({
  name: 'write_test',
  title: 'Create or update a test',
  description:
    'Creates a test (without test_id: name, tool and script required, or steps instead of tool and script) or updates one (with test_id: any of ' +
    'name, script or steps, status; the tool of a test never changes). steps are native HTTP steps stored as a test of the tool http (no ' +
    'code, runs on every agent); a script is the tool\'s own format (see the loadplane://script-formats/<tool> resources; validate_test ' +
    'checks one without saving). The service checks the script and answers a bad_request error naming the problem. Returns the saved ' +
    'test. Needs manage_tests (tests:write).',
  input: Type.Object(
    {
      test_id: Type.Optional(Type.String({ minLength: 1, description: 'the test to update; omit to create one' })),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      tool: Type.Optional(ToolId),
      script: Type.Optional(Type.String({ minLength: 1, description: "the script text in the tool's format, at most 1 MiB" })),
      ...stepArgs,
      status: Type.Optional(Status),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ test: TestSummary, created: Type.Boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(args, { rest }) {
    const { tool, script } = scriptOf(args);
    if (args.test_id === undefined) {
      if (!args.name || !tool || script === undefined) {
        throw new RestError(400, 'bad_request', 'a new test needs name, and tool with script (or steps); to update one, give test_id');
      }
      const created = await rest.send<TestAnswer>('POST', '/tests', { name: args.name, tool, script, ...(args.status ? { status: args.status } : {}) });
      return { test: summaryOf(created), created: true };
    }
    // The tool is fixed at creation: named on an update, it must be the test's own (a scan, only then).
    if (args.tool !== undefined && !args.steps) {
      const current = await findTest(rest, args.test_id);
      if (current.tool !== args.tool) throw new RestError(400, 'bad_request', `the test's tool is ${current.tool} and cannot change; create a new test for ${args.tool}`);
    }
    const changes = { ...(args.name ? { name: args.name } : {}), ...(script !== undefined ? { script } : {}), ...(args.status ? { status: args.status } : {}) };
    if (Object.keys(changes).length === 0) throw new RestError(400, 'bad_request', 'nothing to change: give name, script or steps, or status');
    const updated = await rest.send<TestAnswer>('PATCH', `/tests/${encodeURIComponent(args.test_id)}`, changes);
    return { test: summaryOf(updated), created: false };
  },
});

export const validateTest = defineTool({
  name: 'validate_test',
  title: 'Check a script',
  description:
    "Checks a script (or native steps) the way the service checks it when a test is saved or started, and saves nothing: valid true, or " +
    'valid false with the error the service would answer. Use it while writing a script, before write_test. With steps it also returns ' +
    'the http script they make. It checks the script\'s form (fields, syntax the tool plugin reads), not whether the target answers. ' +
    'With dry_run_machine_id, a valid script also runs once, briefly (1 virtual user for 1 s) on that machine: dry_run then holds the ' +
    "run's status, error, requests, error_rate and last log lines (the run stays in the workspace's history; the draft test made for it " +
    'is deleted). A dry run needs manage_tests and run_tests, and takes a few seconds to a couple of minutes.',
  input: Type.Object(
    {
      tool: Type.Optional(ToolId),
      script: Type.Optional(Type.String({ minLength: 1, description: "the script text in the tool's format" })),
      ...stepArgs,
      dry_run_machine_id: Type.Optional(Type.String({ minLength: 1, description: 'also run the script once, briefly, on this machine (list_machines)' })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    dry_run: Type.Optional(DryRun),
    tool: Type.String(),
    valid: Type.Boolean(),
    error: Nullable(Type.String({ description: 'why the service would refuse it' })),
    checked_by: Type.String({ description: 'service: the tool plugins of the service; local: those of the stdio MCP program' }),
    script: Type.Optional(Type.String({ description: 'with steps: the http script they make' })),
  }),
  // Not read-only: a dry run starts a run (the check alone changes nothing).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(args, { validateScript, rest, signal }) {
    const { tool, script } = scriptOf(args);
    if (!tool || script === undefined) throw new RestError(400, 'bad_request', 'give tool with script, or steps');
    const generated = args.steps ? { script } : {};
    const sizeError =
      script.trim() === '' ? 'the script is blank' : encoder.encode(script).byteLength > maxScriptBytes ? `the script is larger than ${maxScriptBytes} bytes` : null;
    const verdict = await validateScript(tool, script);
    if (!verdict.known) {
      const where = verdict.checkedBy === 'local' ? 'this MCP program (it knows the built-in tools; write_test with status draft checks it on the service)' : 'the service';
      throw new RestError(400, 'bad_request', `unknown tool "${tool}" for ${where}; tools: ${verdict.tools.join(', ')}`);
    }
    const error = sizeError ?? verdict.error;
    const tried = error === null && args.dry_run_machine_id ? { dry_run: await dryRun(rest, signal, { tool, script, machineId: args.dry_run_machine_id }) } : {};
    return { tool, valid: error === null, error, checked_by: verdict.checkedBy, ...generated, ...tried };
  },
});
