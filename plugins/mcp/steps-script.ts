/**
 * Native steps as tools give them (write_test, validate_test) and the `http` tool's script they become: JSON, which
 * is YAML too, of `{base_url?, defaults?: {headers}, steps}` (plugins/load-tool-http/README.md). The service checks it
 * like any http script, with a 400 naming the step and the field.
 */
import { type Static, Type } from '@sinclair/typebox';

const Method = Type.Union(
  ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((method) => Type.Literal(method)),
  { description: 'GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS' },
);
const Headers = Type.Record(Type.String(), Type.String(), { description: 'header name -> value' });

export const Step = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "the endpoint's name in the results; default `METHOD path`" })),
    method: Method,
    url: Type.String({ minLength: 1, description: 'absolute http(s) URL, or a path joined to base_url' }),
    headers: Type.Optional(Headers),
    body: Type.Optional(
      Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown()), Type.Array(Type.Unknown())], {
        description: 'a JSON object or list (sent as JSON) or a string (sent as written); not on GET or HEAD',
      }),
    ),
    expect: Type.Optional(
      Type.Object(
        {
          status: Type.Optional(
            Type.Union([Type.Integer({ minimum: 100, maximum: 599 }), Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), { minItems: 1, maxItems: 20 })], {
              description: 'the status, or statuses, that pass; default any status below 400',
            }),
          ),
          body_contains: Type.Optional(Type.String({ minLength: 1, description: 'text the response body must contain' })),
        },
        { additionalProperties: false, description: 'a response failing it counts as an error of the step' },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The arguments a tool takes for native steps. */
export const stepArgs = {
  steps: Type.Optional(
    Type.Array(Step, {
      minItems: 1,
      maxItems: 100,
      description: 'native HTTP steps instead of a script: stored as a test of the tool http. Each virtual user runs them in order, again and again',
    }),
  ),
  base_url: Type.Optional(Type.String({ minLength: 1, description: 'with steps: the base that relative step urls join, e.g. https://shop.example.com/api' })),
  headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'with steps: headers sent with every step (a step may override them)' })),
};

export interface StepsInput {
  steps: Static<typeof Step>[];
  base_url?: string;
  headers?: Record<string, string>;
}

/** The http tool's script for these steps. */
export function stepsScript({ steps, base_url, headers }: StepsInput): string {
  return `${JSON.stringify({ ...(base_url ? { base_url } : {}), ...(headers && Object.keys(headers).length ? { defaults: { headers } } : {}), steps }, null, 2)}\n`;
}
