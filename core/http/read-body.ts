/** Reads a request body with a byte limit, so an oversized or endless body is refused before it fills memory. */
import { DomainError } from '../kernel/errors.ts';

export const tooLarge = (limit: number) =>
  new DomainError('payload_too_large', `request body exceeds the limit of ${limit} bytes`);

export async function readBodyText(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Parses a JSON body; malformed JSON is a 400 that says where it broke. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const text = await readBodyText(request, limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DomainError('bad_request', `malformed JSON body: ${(error as Error).message}`);
  }
}
