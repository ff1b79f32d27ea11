/** Reads a JSON request body for the admin API; routes that call this opt out of Elysia's parser (`parse: 'none'`). */
import { jsonResponse } from './oauth-responses.ts';

export type JsonBody = { ok: true; value: unknown } | { ok: false; response: Response };

/** Large enough for any user representation, small enough that nobody streams megabytes at us. */
const MAX_BYTES = 64 * 1024;

export async function readJsonBody(request: Request): Promise<JsonBody> {
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(request.headers.get('content-type') ?? '')) {
    return { ok: false, response: jsonResponse(415, { error: 'HTTP 415 Unsupported Media Type' }) };
  }
  const text = await request.text();
  if (text.length > MAX_BYTES) return { ok: false, response: jsonResponse(413, { error: 'HTTP 413 Payload Too Large' }) };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, response: jsonResponse(400, { errorMessage: 'Malformed JSON body' }) };
  }
}
