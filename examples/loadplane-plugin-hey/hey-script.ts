/**
 * A hey test's script: one JSON object naming the request and how many to send, checked field by field so a bad script
 * is a clear 400 when the test runs, not a usage error from hey on the agent.
 */
import { parseDuration } from '@loadplane/plugin-kit';

export interface HeyScript {
  /** http(s) URL every request goes to. */
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Without a load config: this many requests in all (hey -n) ... */
  requests: number;
  /** ... by this many workers (hey -c). */
  concurrency: number;
  /** Without a load config: send for this long instead of a request count (hey -z), e.g. `30s`. */
  duration?: string;
  /** Requests per second per worker, 0 = as fast as possible (hey -q). */
  rate: number;
  /** Seconds per request before it counts as failed, 0 = none (hey -t). */
  timeout: number;
}

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const known = ['url', 'method', 'headers', 'body', 'requests', 'concurrency', 'duration', 'rate', 'timeout'];
export const scriptExample = '{"url": "http://host:8080/path", "requests": 200, "concurrency": 10}';

function integer(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`"${field}" must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** The script as hey will run it; throws an Error whose message is fit for a 400. */
export function parseHeyScript(text: string): HeyScript {
  if (text.trim() === '') throw new Error('script must not be empty');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`a hey script is a JSON object such as ${scriptExample}: ${(error as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`a hey script is a JSON object such as ${scriptExample}`);
  const input = raw as Record<string, unknown>;
  const unknown = Object.keys(input).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new Error(`unknown field "${unknown[0]}"; a hey script has ${known.join(', ')}`);

  if (typeof input.url !== 'string' || !/^https?:\/\/[^\s/]+/.test(input.url)) throw new Error('"url" must be an http:// or https:// URL');
  const method = input.method === undefined ? 'GET' : String(input.method).toUpperCase();
  if (!methods.includes(method)) throw new Error(`"method" must be one of ${methods.join(', ')}`);
  const headers: Record<string, string> = {};
  if (input.headers !== undefined) {
    if (typeof input.headers !== 'object' || input.headers === null || Array.isArray(input.headers)) throw new Error('"headers" must be an object of strings');
    for (const [name, value] of Object.entries(input.headers)) {
      // hey reads -H "Name: value" with ^([\w-]+):\s*(.+)
      if (!/^[\w-]+$/.test(name)) throw new Error(`header name "${name}" may hold letters, digits, _ and - only`);
      if (typeof value !== 'string' || value.trim() === '' || /[\r\n]/.test(value)) throw new Error(`header "${name}" must be a non-empty one-line string`);
      headers[name] = value;
    }
  }
  if (input.body !== undefined && typeof input.body !== 'string') throw new Error('"body" must be a string');
  if (input.duration !== undefined && input.requests !== undefined) throw new Error('give "requests" or "duration", not both');
  let duration: string | undefined;
  if (input.duration !== undefined) {
    try {
      if (parseDuration(input.duration, 'duration') <= 0) throw new Error('"duration" must be longer than 0s');
    } catch (error) {
      throw new Error((error as Error).message);
    }
    duration = String(input.duration).trim();
  }
  // hey reports at most a million requests per run in its CSV: beyond that the counts would be wrong.
  const requests = input.requests === undefined ? 200 : integer(input.requests, 'requests', 1, 1_000_000);
  const concurrency = input.concurrency === undefined ? Math.min(10, requests) : integer(input.concurrency, 'concurrency', 1, 10_000);
  if (!duration && concurrency > requests) throw new Error('"concurrency" cannot exceed "requests" (each worker sends at least one)');
  if (input.rate !== undefined && (typeof input.rate !== 'number' || !(input.rate >= 0))) throw new Error('"rate" must be a number ≥ 0');
  const timeout = input.timeout === undefined ? 20 : integer(input.timeout, 'timeout', 0, 3600);
  return {
    url: input.url,
    method,
    headers,
    ...(input.body !== undefined ? { body: input.body as string } : {}),
    requests,
    concurrency,
    ...(duration ? { duration } : {}),
    rate: (input.rate as number | undefined) ?? 0,
    timeout,
  };
}
