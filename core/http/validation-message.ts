/** Turns Elysia's validation error into one sentence that names the offending field (and, for a choice, the choices). */
import type { ValidationError } from 'elysia';

interface SchemaNode {
  const?: unknown;
  type?: unknown;
  anyOf?: SchemaNode[];
}

/**
 * The values a union of literals accepts (`null` included when the union is nullable), or null when the schema is not
 * such a choice. TypeBox's own summary names only the literals' types ("should be one of: 'string', 'string'").
 */
export function choicesOf(schema: SchemaNode | undefined): string[] | null {
  if (!schema?.anyOf?.length) return null;
  const choices: string[] = [];
  for (const option of schema.anyOf) {
    if (option.anyOf) {
      const nested = choicesOf(option);
      if (!nested) return null;
      choices.push(...nested);
    } else if ('const' in option) {
      choices.push(typeof option.const === 'string' ? option.const : JSON.stringify(option.const));
    } else if (option.type === 'null') {
      choices.push('null');
    } else {
      return null;
    }
  }
  return choices;
}

/** The offending value as a short JSON text, for the message (never the whole of a long value). */
function shortValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function describeValidationError(error: ValidationError): { message: string; field?: string } {
  const first = error.all[0] as { path?: string; message?: string; summary?: string; value?: unknown; schema?: SchemaNode } | undefined;
  const where = error.type === 'body' ? 'body' : error.type;
  if (!first) return { message: `invalid ${where}` };
  const field = (first.path ?? '').replace(/^\//, '').replaceAll('/', '.');
  if (error.type === 'body' && (error.value === undefined || error.value === null)) {
    return { message: 'request body must be a JSON object' };
  }
  const choices = choicesOf(first.schema);
  const problem = choices ? `must be one of ${choices.join(', ')} (got ${shortValue(first.value)})` : (first.summary ?? first.message);
  if (!field) return { message: `invalid ${where}: ${problem}` };
  return { message: `${where} field "${field}": ${problem}`, field };
}
