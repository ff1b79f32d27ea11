/**
 * Turns the text of an environment variable into the value a plugin's config schema (TypeBox) asks for: numbers,
 * booleans, lists and JSON where the schema says so; the text itself where it asks for a string.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export type Coerced = { ok: true; value: unknown } | { ok: false; expected: string };

/** The JSON Schema keywords read here, whatever the kind. */
type Keywords = { [Kind]?: string; properties?: Record<string, TSchema>; const?: unknown; anyOf?: TSchema[]; items?: TSchema };
const keywords = (schema: TSchema) => schema as unknown as Keywords;

const trueWords = ['true', '1', 'yes', 'on'];
const falseWords = ['false', '0', 'no', 'off'];

/** The schema's kind (`String`, `Object`, `Union`, ...), as TypeBox marks it. */
export function kindOf(schema: TSchema): string {
  return String(keywords(schema)[Kind] ?? '');
}

/** The named properties of an object schema, or null when the schema is not an object with known keys. */
export function propertiesOf(schema: TSchema): Record<string, TSchema> | null {
  return kindOf(schema) === 'Object' ? (keywords(schema).properties ?? {}) : null;
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

/**
 * The value `raw` stands for under `schema`. The words the service's own variables take: booleans true/false, 1/0,
 * yes/no, on/off; whole numbers in digits; lists comma-separated or as a JSON array; objects as JSON. A loosely typed
 * key (any, unknown) gets the text as it is.
 */
export function coerceBySchema(schema: TSchema, raw: string): Coerced {
  switch (kindOf(schema)) {
    case 'String':
      return { ok: true, value: raw };
    case 'Integer':
      return /^-?\d+$/.test(raw) ? { ok: true, value: Number(raw) } : { ok: false, expected: 'a whole number' };
    case 'Number': {
      const value = Number(raw);
      return raw !== '' && Number.isFinite(value) ? { ok: true, value } : { ok: false, expected: 'a number' };
    }
    case 'Boolean': {
      const word = raw.toLowerCase();
      if (trueWords.includes(word)) return { ok: true, value: true };
      if (falseWords.includes(word)) return { ok: true, value: false };
      return { ok: false, expected: 'true or false (on or off)' };
    }
    case 'Literal': {
      const constant = keywords(schema).const;
      const word = raw.toLowerCase();
      const value = typeof constant === 'number' ? Number(raw) : typeof constant === 'boolean' ? trueWords.includes(word) || (falseWords.includes(word) ? false : undefined) : raw;
      return value === constant ? { ok: true, value } : { ok: false, expected: JSON.stringify(constant) };
    }
    case 'Union':
      return coerceUnion(keywords(schema).anyOf ?? [], raw);
    case 'Array':
      return coerceArray(keywords(schema).items ?? ({} as TSchema), raw);
    case 'Object':
    case 'Record': {
      const parsed = parseJson(raw);
      return parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)
        ? parsed
        : { ok: false, expected: 'a JSON object' };
    }
    case 'Null':
      return raw === 'null' ? { ok: true, value: null } : { ok: false, expected: 'null' };
    default:
      return { ok: true, value: raw };
  }
}

/** The first member the text reads as and that then fits: `"30"` is 30 for Integer | Literal('off'), `off` the literal. */
function coerceUnion(members: readonly TSchema[], raw: string): Coerced {
  for (const member of members) {
    const candidate = coerceBySchema(member, raw);
    if (candidate.ok && Value.Check(member, candidate.value)) return candidate;
  }
  const literals = members.filter((member) => kindOf(member) === 'Literal').map((member) => String(keywords(member).const));
  if (literals.length === members.length) return { ok: false, expected: `one of ${literals.join(', ')}` };
  return { ok: false, expected: members.map((member) => kindOf(member).toLowerCase()).join(' or ') };
}

/** A JSON array as it is; otherwise comma-separated items, each read by the item schema (blank items dropped). */
function coerceArray(items: TSchema, raw: string): Coerced {
  if (raw.startsWith('[')) {
    const parsed = parseJson(raw);
    return parsed.ok && Array.isArray(parsed.value) ? parsed : { ok: false, expected: 'a JSON array or a comma-separated list' };
  }
  if (['Object', 'Record', 'Array'].includes(kindOf(items))) return { ok: false, expected: 'a JSON array' };
  const values: unknown[] = [];
  for (const item of raw.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const coerced = coerceBySchema(items, item);
    if (!coerced.ok) return { ok: false, expected: `a comma-separated list of ${coerced.expected}` };
    values.push(coerced.value);
  }
  return { ok: true, value: values };
}
