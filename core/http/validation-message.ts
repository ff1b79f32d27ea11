/** Turns Elysia's validation error into one sentence that names the offending field. */
import type { ValidationError } from 'elysia';

export function describeValidationError(error: ValidationError): { message: string; field?: string } {
  const first = error.all[0] as { path?: string; message?: string; summary?: string; schema?: { description?: string } } | undefined;
  const where = error.type === 'body' ? 'body' : error.type;
  if (!first) return { message: `invalid ${where}` };
  const field = (first.path ?? '').replace(/^\//, '').replaceAll('/', '.');
  if (error.type === 'body' && (error.value === undefined || error.value === null)) {
    return { message: 'request body must be a JSON object' };
  }
  if (!field) return { message: `invalid ${where}: ${first.summary ?? first.message}` };
  return { message: `${where} field "${field}": ${first.summary ?? first.message}`, field };
}
