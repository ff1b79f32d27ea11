/** Turns a route's TypeBox schema into plain JSON Schema for OpenAPI 3.1, hoisting titled objects into components. */

import { documentKey } from './schemas/common.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value is one schema, a list of schemas, or a map of schemas (JSON Schema 2020-12). */
const oneSchema = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else']);
const schemaList = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const schemaMap = new Set(['properties', 'patternProperties', '$defs']);
/** Annotations that mean nothing to OpenAPI 3.1: `$id` values with fragments make validators refuse the document; Elysia's `error` messages; `nullable` (3.0; a union with null says it). */
const dropped = new Set(['$id', 'transform', 'error', 'nullable']);

export class SchemaComponents {
  readonly schemas: Record<string, Json> = {};
  private readonly texts = new Map<string, string>();

  /**
   * A JSON Schema copy of `schema`: symbols dropped (JSON round trip), literal unions as `enum`, and every object
   * with a `title` put in components once and referenced; two different schemas with one title stay inline.
   */
  convert(schema: unknown): Json {
    return this.walk(JSON.parse(JSON.stringify(schema ?? {})) as Json);
  }

  private walk(input: Json): Json {
    const node = withDocumented(input);
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (dropped.has(key)) continue;
      if (oneSchema.has(key) && isObject(value)) out[key] = this.walk(value);
      else if (schemaList.has(key) && Array.isArray(value)) out[key] = value.map((item) => (isObject(item) ? this.walk(item) : item));
      else if (schemaMap.has(key) && isObject(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, isObject(child) ? this.walk(child) : child]));
      } else out[key] = value;
    }
    const result = enumOf(out) ?? out;
    return typeof result.title === 'string' && result.type === 'object' ? this.hoist(result) : result;
  }

  private hoist(node: Json): Json {
    const name = String(node.title).replace(/[^A-Za-z0-9._-]/g, '');
    const text = JSON.stringify(node);
    const known = this.texts.get(name);
    if (known === undefined) {
      this.texts.set(name, text);
      this.schemas[name] = node;
    } else if (known !== text) {
      return node;
    }
    return { $ref: `#/components/schemas/${name}` };
  }
}

/** The schema with its document-only constraints merged in (see `documented` in schemas/common.ts); null removes a key. */
function withDocumented(node: Json): Json {
  const extra = node[documentKey];
  if (!isObject(extra)) return node;
  const merged: Json = { ...node, ...extra };
  delete merged[documentKey];
  for (const [key, value] of Object.entries(extra)) if (value === null) delete merged[key];
  return merged;
}

/** anyOf of string constants (TypeBox's literal union) as one `enum`, keeping the description. */
function enumOf(node: Json): Json | null {
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length === 0) return null;
  if (!options.every((option) => isObject(option) && typeof option.const === 'string')) return null;
  const { anyOf: _anyOf, ...rest } = node;
  return { ...rest, type: 'string', enum: options.map((option) => (option as Json).const) };
}
