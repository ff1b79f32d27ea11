/** A union of string literals as a TypeBox schema, without the `default` that Elysia's t.UnionEnum adds (a PATCH must not invent values). */
import { type TUnsafe, Type } from '@sinclair/typebox';

export function literalUnion<const Values extends readonly string[]>(values: Values, options: { description?: string } = {}) {
  // A real union validates; the cast only gives it the static type TypeScript cannot infer through `map`.
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as unknown as TUnsafe<Values[number]>;
}
