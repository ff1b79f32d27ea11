/** An environment variable's text becomes the value its key's schema asks for, or says what it should have been. */
import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { coerceBySchema } from './coerce-by-schema.ts';

const ok = (value: unknown) => ({ ok: true as const, value });

describe('coerceBySchema', () => {
  test('strings as written, numbers and whole numbers, booleans in the service words', () => {
    expect(coerceBySchema(Type.String(), '/opt/k6/k6')).toEqual(ok('/opt/k6/k6'));
    expect(coerceBySchema(Type.Integer(), '42')).toEqual(ok(42));
    expect(coerceBySchema(Type.Integer(), '-3')).toEqual(ok(-3));
    expect(coerceBySchema(Type.Number(), '0.25')).toEqual(ok(0.25));
    for (const word of ['true', 'on', 'YES', '1']) expect(coerceBySchema(Type.Boolean(), word)).toEqual(ok(true));
    for (const word of ['false', 'off', 'no', '0']) expect(coerceBySchema(Type.Boolean(), word)).toEqual(ok(false));
  });

  test('what does not read as its type says what it should be', () => {
    expect(coerceBySchema(Type.Integer(), '1.5')).toEqual({ ok: false, expected: 'a whole number' });
    expect(coerceBySchema(Type.Integer(), '10s')).toEqual({ ok: false, expected: 'a whole number' });
    expect(coerceBySchema(Type.Number(), 'fast')).toEqual({ ok: false, expected: 'a number' });
    expect(coerceBySchema(Type.Boolean(), 'maybe')).toEqual({ ok: false, expected: 'true or false (on or off)' });
  });

  test('lists: comma-separated (each item typed) or a JSON array', () => {
    expect(coerceBySchema(Type.Array(Type.String()), 'a.test, b.test,,')).toEqual(ok(['a.test', 'b.test']));
    expect(coerceBySchema(Type.Array(Type.Integer()), '1,2,3')).toEqual(ok([1, 2, 3]));
    expect(coerceBySchema(Type.Array(Type.String()), '["x,y","z"]')).toEqual(ok(['x,y', 'z']));
    expect(coerceBySchema(Type.Array(Type.Integer()), '1,two')).toEqual({ ok: false, expected: 'a comma-separated list of a whole number' });
    expect(coerceBySchema(Type.Array(Type.Object({ a: Type.String() })), 'a')).toEqual({ ok: false, expected: 'a JSON array' });
  });

  test('objects and records as JSON objects', () => {
    expect(coerceBySchema(Type.Object({ enabled: Type.Boolean() }), '{"enabled":false}')).toEqual(ok({ enabled: false }));
    expect(coerceBySchema(Type.Record(Type.String(), Type.String()), '{"x":"y"}')).toEqual(ok({ x: 'y' }));
    expect(coerceBySchema(Type.Object({}), '[1]')).toEqual({ ok: false, expected: 'a JSON object' });
    expect(coerceBySchema(Type.Object({}), '{oops')).toEqual({ ok: false, expected: 'a JSON object' });
  });

  test('unions: the first member the text reads as and fits; literals by their value', () => {
    const algorithm = Type.Union([Type.Literal('RS256'), Type.Literal('ES256')]);
    expect(coerceBySchema(algorithm, 'ES256')).toEqual(ok('ES256'));
    expect(coerceBySchema(algorithm, 'HS256')).toEqual({ ok: false, expected: 'one of RS256, ES256' });
    const limit = Type.Union([Type.Integer(), Type.Literal('off')]);
    expect(coerceBySchema(limit, '30')).toEqual(ok(30));
    expect(coerceBySchema(limit, 'off')).toEqual(ok('off'));
    expect(coerceBySchema(Type.Array(algorithm), 'RS256,ES256')).toEqual(ok(['RS256', 'ES256']));
    expect(coerceBySchema(Type.Literal(true), 'on')).toEqual(ok(true));
  });

  test('a loosely typed key gets the text', () => {
    expect(coerceBySchema(Type.Any(), '12')).toEqual(ok('12'));
    expect(coerceBySchema(Type.Unknown(), 'x')).toEqual(ok('x'));
  });
});
