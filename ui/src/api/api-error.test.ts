/** ApiError keeps the API's message for people and its code for code. */
import { describe, expect, test } from 'bun:test';
import { ApiError, isClientError } from './api-error';

describe('ApiError', () => {
  test('from the {error, message} body', () => {
    const error = ApiError.fromBody(409, { error: 'conflict', message: 'hostname gen-1 is already registered' });
    expect(error.status).toBe(409);
    expect(error.code).toBe('conflict');
    expect(error.message).toBe('hostname gen-1 is already registered');
    expect(isClientError(error)).toBe(true);
    expect(isClientError(ApiError.fromBody(500, {}))).toBe(false);
  });
  test('from bodies that are not the spec shape', () => {
    expect(ApiError.fromBody(502, 'Bad gateway').message).toBe('Bad gateway');
    expect(ApiError.fromBody(500, undefined).message).toBe('The service answered 500.');
    expect(ApiError.fromBody(400, { error: 'bad_request' }).message).toBe('bad_request');
  });
  test('from a response', async () => {
    const response = new Response(JSON.stringify({ error: 'not_found', message: 'task not found' }), { status: 404 });
    const error = await ApiError.fromResponse(response);
    expect([error.status, error.code, error.message]).toEqual([404, 'not_found', 'task not found']);
  });
});
