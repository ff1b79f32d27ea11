/** The body of an action that takes no input: nothing, or an empty JSON object; anything else a 400, as the document says. */
import { t } from 'elysia';
import { badRequest } from '../../kernel/errors.ts';
import { hasBody } from '../read-body.ts';

export const NoInput = t.Optional(t.Object({}, { additionalProperties: false }));

/**
 * Refuses what NoInput's schema check lets through: Elysia passes a JSON scalar (5, "x", true) through an optional object
 * without properties, and the JSON reader hands a `null` body on as no body at all. Call it first in the handler.
 */
export function refuseInput(body: unknown, request: Request): void {
  const scalar = body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body));
  if (scalar || (body == null && hasBody(request))) throw badRequest('this action takes no input: send no body, or {}');
}
