/**
 * What a tool is (a name, a description for a model, TypeBox input and output schemas, annotations, a `run` over the
 * REST client) and how one call runs, the same on both transports: arguments checked against the input schema, the
 * call counted against the workspace's AI tool-call budget, then run; an answer both as structured content and as JSON
 * text, a failure as a tool error carrying the REST error's code and message.
 */
import type { Static, TObject } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'loadplane/plugin';
import { chargeToolCall } from './budget.ts';
import { RestError, type RestClient } from './rest-client.ts';
import type { ScriptValidator } from './script-validator.ts';

export interface ToolContext {
  rest: RestClient;
  /** Aborted when the MCP request goes away: long tools (wait_for_run) stop. */
  signal: AbortSignal;
  validateScript: ScriptValidator;
  logger: Logger;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  /** Every tool reaches only this workspace's service, never the open world. */
  openWorldHint?: boolean;
}

export interface ToolDefinition<Input extends TObject, Output extends TObject> {
  name: string;
  title: string;
  /** Written for a model: what it returns (units included) and when to use it. */
  description: string;
  input: Input;
  output: Output;
  annotations: ToolAnnotations;
  run(args: Static<Input>, ctx: ToolContext): Promise<Static<Output>>;
}

export type AnyTool = ToolDefinition<TObject, TObject>;

/** Keeps a tool's types checked against its own schemas, then files it with the others. */
export function defineTool<Input extends TObject, Output extends TObject>(tool: ToolDefinition<Input, Output>): AnyTool {
  return tool as unknown as AnyTool;
}

/** JSON Schema as a client reads it: TypeBox's own (symbol) keys left out. */
const plain = (schema: TObject): { type: 'object'; [key: string]: unknown } => JSON.parse(JSON.stringify(schema));

const listings = new WeakMap<AnyTool, ReturnType<typeof listingOf>>();

function listingOf(tool: AnyTool) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: plain(tool.input),
    outputSchema: plain(tool.output),
    annotations: { title: tool.title, openWorldHint: false, ...tool.annotations },
  };
}

/** The tools/list entry of a tool, computed once. */
export function toolListing(tool: AnyTool) {
  let listing = listings.get(tool);
  if (!listing) listings.set(tool, (listing = listingOf(tool)));
  return listing;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A tool error a model can read: the REST status, its machine-readable code and its message, as JSON. */
export function toolError(status: number, code: string, message: string): ToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: code, message, status }) }] };
}

/** A tool's schemas compiled once: every call checks its arguments and its answer (a 50-run page ~25x faster than Value.Check). */
const checkers = new WeakMap<AnyTool, { input: TypeCheck<TObject>; output: TypeCheck<TObject> }>();

function checkerOf(tool: AnyTool) {
  let checker = checkers.get(tool);
  if (!checker) checkers.set(tool, (checker = { input: TypeCompiler.Compile(tool.input), output: TypeCompiler.Compile(tool.output) }));
  return checker;
}

function argumentErrors(tool: AnyTool, args: unknown): string | null {
  const check = checkerOf(tool).input;
  if (check.Check(args)) return null;
  return [...check.Errors(args)]
    .slice(0, 5)
    .map((error) => `${error.path || '(arguments)'}: ${error.message}`)
    .join('; ');
}

/**
 * Counts the call, then runs it: nothing starts before the count is granted, so an exhausted budget stops every tool
 * with nothing done, reads included (the count costs about a millisecond; the spec counts every call).
 */
async function countedRun(tool: AnyTool, args: Static<TObject>, ctx: ToolContext): Promise<unknown> {
  await chargeToolCall(ctx);
  return tool.run(args, ctx);
}

/** One tools/call: check, count, run, answer. Never throws: every failure is a tool error the model can act on. */
export async function runTool(tool: AnyTool, rawArgs: unknown, ctx: ToolContext): Promise<ToolResult> {
  const args = Value.Default(tool.input, structuredClone(rawArgs ?? {}));
  const invalid = argumentErrors(tool, args);
  if (invalid) return toolError(400, 'bad_request', `invalid arguments for ${tool.name}: ${invalid}`);
  try {
    const result = await countedRun(tool, args as Static<TObject>, ctx);
    const output = checkerOf(tool).output;
    if (!output.Check(result)) {
      // A bug of ours (or a REST answer changed under us): say what, and never hand out a shape the schema denies.
      const first = [...output.Errors(result)][0];
      ctx.logger.error('tool answer does not match its output schema', { tool: tool.name, path: first?.path, error: first?.message });
      return toolError(500, 'internal_error', `${tool.name} produced an answer that does not match its output schema (${first?.path}: ${first?.message})`);
    }
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as Record<string, unknown> };
  } catch (error) {
    if (error instanceof RestError) return toolError(error.status, error.code, error.message);
    if (ctx.signal.aborted) return toolError(499, 'cancelled', 'the request was cancelled');
    ctx.logger.error('tool failed', { tool: tool.name, error: String(error), stack: (error as Error)?.stack });
    return toolError(500, 'internal_error', `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
