/** Reads a request body with a byte limit, so an oversized or endless body is refused before it fills memory. */
import { badRequest, DomainError } from '../kernel/errors.ts';
import { jsonNestsDeeperThan, maxJsonNesting } from './json-nesting.ts';

export const tooLarge = (limit: number) =>
  new DomainError('payload_too_large', `request body exceeds the limit of ${limit} bytes`);

export const lengthRequired = () =>
  new DomainError('length_required', 'a request body here must declare its Content-Length (chunked bodies are accepted under /api/v1 only)');

export const notJson = (contentType: string) =>
  new DomainError(
    'unsupported_media_type',
    `request bodies are JSON: send Content-Type: application/json${contentType ? ` (not ${contentType})` : ''}`,
  );

export const tooDeep = () => badRequest(`JSON body nests objects and arrays more than ${maxJsonNesting} deep`);

/** A body of unknown length: sent chunked, without Content-Length. */
export const isChunked = (request: Request) =>
  request.headers.get('content-length') === null && request.headers.has('transfer-encoding');

/** Whether the request carries body bytes at all: a declared non-zero length, or a body stream without one (chunked). */
export const hasBody = (request: Request) => {
  const declared = request.headers.get('content-length');
  return declared === null ? request.body !== null : Number(declared) > 0;
};

/** `application/json` or a `+json` type such as `application/merge-patch+json`; parameters already stripped. */
export const isJsonType = (contentType: string | undefined) =>
  !!contentType && /^application\/([\w.-]+\+)?json$/i.test(contentType.trim());

/** A stream's bytes, refused with `overLimit()` (and the stream cancelled) as soon as more than `limit` arrived. */
export async function readLimited(stream: ReadableStream<Uint8Array>, limit: number, overLimit: () => DomainError): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw overLimit();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return '';
  return new TextDecoder().decode(await readLimited(request.body, limit, () => tooLarge(limit)));
}

/** Parses a JSON body; malformed JSON is a 400 that says where it broke, and so is one nested too deep or a string holding U+0000. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const text = await readBodyText(request, limit);
  if (text.trim() === '') return undefined;
  if (jsonNestsDeeperThan(text)) throw tooDeep();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DomainError('bad_request', `malformed JSON body: ${(error as Error).message}`);
  }
  // PostgreSQL text cannot hold NUL: refused here, named, rather than failing deep in a query. JSON can only carry it
  // escaped, so the text tells cheaply whether the parsed value needs a look.
  if (text.includes('\\u0000')) {
    const where = nulPath(value, '');
    if (where !== null) throw badRequest(`body field "${where || '(the body)'}" contains U+0000 (NUL), which cannot be stored`, { field: where });
  }
  return value;
}

/** The path of the first string (value or key) holding U+0000, or null. */
function nulPath(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = nulPath(child, at);
    if (found !== null) return found;
  }
  return null;
}
