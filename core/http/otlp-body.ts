/**
 * Reads an OTLP/HTTP request body: its media type (protobuf or JSON) and encoding (identity or gzip) checked before a
 * byte is read, the bytes counted against the body limit as they arrive, and a gzip body counted again as it
 * inflates, so neither an endless body nor a small bomb fills memory.
 */
import { DomainError } from '../kernel/errors.ts';
import { isJsonType, readLimited, tooLarge } from './read-body.ts';

export type OtlpEncoding = 'protobuf' | 'json';

const protobufTypes = ['application/x-protobuf', 'application/protobuf'];

/** The request's OTLP encoding from Content-Type; 415 for anything else. */
export function otlpEncodingOf(request: Request): OtlpEncoding {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (protobufTypes.includes(type)) return 'protobuf';
  if (isJsonType(type)) return 'json';
  throw new DomainError(
    'unsupported_media_type',
    `OTLP/HTTP bodies are Content-Type: application/x-protobuf or application/json${type ? ` (not ${type})` : ' (none was sent)'}`,
  );
}

/** Whether the body is gzipped (Content-Encoding); 415 for an encoding other than gzip or identity. */
export function isGzipped(request: Request): boolean {
  const encoding = (request.headers.get('content-encoding') ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return false;
  if (encoding === 'gzip' || encoding === 'x-gzip') return true;
  throw new DomainError('unsupported_media_type', `Content-Encoding ${encoding} is not supported: send gzip or none`);
}

/** The body's bytes, inflated when gzipped: at most `maxBytes` on the wire and `maxInflatedBytes` after inflating. */
export async function readOtlpBody(request: Request, maxBytes: number, maxInflatedBytes: number): Promise<Uint8Array> {
  const gzipped = isGzipped(request);
  if (!request.body) return new Uint8Array(0);
  const wire = await readLimited(request.body, maxBytes, () => tooLarge(maxBytes));
  if (!gzipped) return wire;
  const inflating = new Blob([wire as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  try {
    return await readLimited(inflating, maxInflatedBytes, () => new DomainError('payload_too_large', `the gzip body inflates past the limit of ${maxInflatedBytes} bytes`));
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('bad_request', `the body is not valid gzip: ${(error as Error).message}`);
  }
}
