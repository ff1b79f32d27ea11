/** Schemas shared by every route: the error body, ids and timestamps. */
import { type IntegerOptions, type StringOptions, Type } from '@sinclair/typebox';
import { t } from 'elysia';

export const ErrorBody = t.Object(
  {
    error: t.String({ description: 'machine-readable code, e.g. not_found' }),
    message: t.String({ description: 'human-readable explanation' }),
  },
  { title: 'Error' },
);

export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  429: ErrorBody,
  502: ErrorBody,
} as const;

export const IdParams = t.Object({ id: t.String({ description: 'the resource id (UUID)' }) });

export const Timestamp = t.String({ format: 'date-time', description: 'ISO 8601 UTC, ending in Z' });

export const bearerSecurity = [{ bearerAuth: [] }];

/** A JSON integer and nothing else: Elysia's t.Integer also takes numeric strings, which a JSON body should not. */
export const Integer = (options?: IntegerOptions) => Type.Integer(options);

/**
 * Whitespace as JavaScript's trim() sees it (the services trim names and durations). Spelled out, because `\s`, `\S`
 * and `\d` mean other characters to the Python tools that read the document (Unicode digits, \x1c..\x1f).
 */
export const jsWhitespace = '\\t-\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

/**
 * What the OpenAPI document adds to a runtime schema: constraints the service checks itself, with messages that name
 * the field and the value (a pattern failure from the schema validator would not). The document builder merges these
 * keys into the schema (a null removes one); the runtime validator ignores them. CI fuzzes the service against the
 * document, so the two cannot drift apart unnoticed.
 */
export const documentKey = 'x-loadplane-document';
export const documented = (constraints: Record<string, unknown>) => ({ [documentKey]: constraints });

/** Somewhere a character that is not whitespace: the services refuse blank names. */
export const nonBlankPattern = `[^${jsWhitespace}]`;

/** A name: the service trims it and refuses a blank one; at most `maxLength`. */
export const NonBlank = (options: StringOptions & { maxLength: number }) =>
  t.String({ minLength: 1, ...options, ...documented({ pattern: nonBlankPattern }) });

/** An RFC 3339 timestamp as input, e.g. 2027-01-31T00:00:00Z (the service parses and checks it). */
export const TimestampInput = (options: StringOptions = {}) =>
  t.String({
    ...options,
    ...documented({ format: 'date-time', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$' }),
  });
