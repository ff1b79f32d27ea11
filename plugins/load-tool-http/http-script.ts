/**
 * The http tool's script: native HTTP steps in YAML (or JSON), `{base_url?, defaults?: {headers}, steps: [{name,
 * method, url, headers?, body?, expect?: {status?, body_contains?}}]}`. Parsed and checked the same way on the server
 * (a 400 naming the step and the field) and on the agent (which turns it into the engine's plan).
 */
import { parse } from 'yaml';
import type { PlannedStep } from './engine/plan.ts';

export const maxSteps = 100;
export const maxNameLength = 200;
export const httpMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

type Json = Record<string, unknown>;
const isMap = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A script error: the message of the 400 (and of a run that could not start). */
class ScriptError extends Error {}
function fail(message: string): never {
  throw new ScriptError(message);
}

function onlyFields(value: Json, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(`${where}: unknown field "${key}" (allowed: ${allowed.join(', ')})`);
  }
}

// RFC 9110 token characters.
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Header names in lower case (HTTP's are case-insensitive), values as text; numbers and booleans as YAML wrote them. */
function headersOf(value: unknown, where: string): Record<string, string> {
  if (!isMap(value)) return fail(`${where}: headers must be a mapping of header names to values`);
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(value)) {
    if (!headerName.test(name)) fail(`${where}: "${name}" is not a valid header name`);
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') fail(`${where}: header "${name}" must be a string`);
    const text = String(raw);
    if (/[\r\n\0]/.test(text)) fail(`${where}: header "${name}" must not contain line breaks or NUL`);
    headers[name.toLowerCase()] = text;
  }
  return headers;
}

const hasScheme = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url);

function httpUrl(text: string, where: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail(`${where}: "${text}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`${where}: "${text}" must be an http or https URL`);
  return url;
}

/** A relative url joins base_url as a path: `http://h/api` + `/users` is `http://h/api/users` (as Artillery and Postman join). */
function resolveUrl(raw: unknown, base: string | null, where: string): URL {
  if (typeof raw !== 'string' || raw.trim() === '') return fail(`${where}: url must be a non-empty string`);
  const text = raw.trim();
  if (hasScheme(text)) return httpUrl(text, `${where}: url`);
  if (text.startsWith('//')) fail(`${where}: url "${text}" must be absolute (http:// or https://) or a path relative to base_url`);
  if (base === null) fail(`${where}: url "${text}" is relative but the script has no base_url`);
  const joined = text.startsWith('?') ? `${base!.replace(/\/+$/, '')}${text}` : `${base!.replace(/\/+$/, '')}/${text.replace(/^\/+/, '')}`;
  return httpUrl(joined, `${where}: url`);
}

function statusList(raw: unknown, where: string): number[] {
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0 || list.length > 20) fail(`${where}: expect.status must be a status or a list of 1 to 20 statuses`);
  for (const status of list) {
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) {
      fail(`${where}: expect.status ${JSON.stringify(status)} is not an HTTP status (an integer from 100 to 599)`);
    }
  }
  return list as number[];
}

function stepOf(raw: unknown, index: number, base: string | null, defaults: Record<string, string>): PlannedStep {
  if (!isMap(raw)) return fail(`steps[${index}] must be a mapping with method and url`);
  const named = typeof raw.name === 'string' && raw.name.trim() ? ` ("${raw.name.trim().slice(0, 60)}")` : '';
  const where = `steps[${index}]${named}`;
  onlyFields(raw, ['name', 'method', 'url', 'headers', 'body', 'expect'], where);

  if (typeof raw.method !== 'string') fail(`${where}: method is required (${httpMethods.join(', ')})`);
  const method = (raw.method as string).trim().toUpperCase();
  if (!(httpMethods as readonly string[]).includes(method)) fail(`${where}: method "${raw.method}" is not one of ${httpMethods.join(', ')}`);
  if (raw.url === undefined) fail(`${where}: url is required`);
  const url = resolveUrl(raw.url, base, where);

  let name = `${method} ${url.pathname}`;
  if (raw.name !== undefined) {
    if (typeof raw.name !== 'string' || raw.name.trim() === '') fail(`${where}: name must be a non-empty string`);
    name = (raw.name as string).trim();
    if (name.length > maxNameLength) fail(`${where}: name is longer than ${maxNameLength} characters`);
  }

  const headers = { ...defaults, ...(raw.headers === undefined ? {} : headersOf(raw.headers, where)) };
  let body: string | null = null;
  if (raw.body !== undefined) {
    if (method === 'GET' || method === 'HEAD') fail(`${where}: a ${method} request cannot have a body`);
    if (typeof raw.body === 'string') body = raw.body;
    else if (typeof raw.body === 'object' && raw.body !== null) {
      // A JSON body: sent as JSON, and said so unless the step or the defaults set a content type.
      body = JSON.stringify(raw.body);
      headers['content-type'] ??= 'application/json';
    } else fail(`${where}: body must be a string or a JSON object`);
  }

  let expectStatus: number[] | null = null;
  let bodyContains: string | null = null;
  if (raw.expect !== undefined) {
    if (!isMap(raw.expect)) fail(`${where}: expect must be a mapping with status and/or body_contains`);
    const expectation = raw.expect as Json;
    onlyFields(expectation, ['status', 'body_contains'], `${where}: expect`);
    if (expectation.status !== undefined) expectStatus = statusList(expectation.status, where);
    if (expectation.body_contains !== undefined) {
      if (typeof expectation.body_contains !== 'string' || expectation.body_contains === '') fail(`${where}: expect.body_contains must be a non-empty string`);
      if (method === 'HEAD') fail(`${where}: a HEAD answer has no body for expect.body_contains`);
      bodyContains = expectation.body_contains as string;
    }
  }
  return { name, method, url: url.href, headers, body, expectStatus, bodyContains };
}

/** The script's steps, resolved (absolute URLs, merged headers, bodies as text), or the reason it cannot run. */
export function parseHttpScript(script: string): { ok: true; steps: PlannedStep[] } | { ok: false; error: string } {
  let document: unknown;
  try {
    // JSON is YAML too. Plain data only: the yaml package's default schema has no custom tags.
    document = parse(script, { prettyErrors: false });
  } catch (error) {
    return { ok: false, error: `the script is not valid YAML or JSON: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
  try {
    if (!isMap(document)) fail('the script must be a mapping with steps (and optionally base_url and defaults)');
    const root = document as Json;
    onlyFields(root, ['base_url', 'defaults', 'steps'], 'the script');
    let base: string | null = null;
    if (root.base_url !== undefined) {
      if (typeof root.base_url !== 'string' || root.base_url.trim() === '') fail('base_url must be an http or https URL');
      base = httpUrl((root.base_url as string).trim(), 'base_url').href;
    }
    let defaults: Record<string, string> = {};
    if (root.defaults !== undefined) {
      if (!isMap(root.defaults)) fail('defaults must be a mapping with headers');
      onlyFields(root.defaults as Json, ['headers'], 'defaults');
      if ((root.defaults as Json).headers !== undefined) defaults = headersOf((root.defaults as Json).headers, 'defaults');
    }
    if (!Array.isArray(root.steps) || root.steps.length === 0) fail('steps must be a non-empty list of steps');
    const list = root.steps as unknown[];
    if (list.length > maxSteps) fail(`steps has ${list.length} steps; at most ${maxSteps}`);
    return { ok: true, steps: list.map((step, index) => stepOf(step, index, base, defaults)) };
  } catch (error) {
    if (error instanceof ScriptError) return { ok: false, error: error.message };
    throw error;
  }
}

export function validateHttpScript(script: string): string | null {
  if (typeof script !== 'string' || script.trim() === '') return 'script must not be empty';
  const parsed = parseHttpScript(script);
  return parsed.ok ? null : parsed.error;
}
