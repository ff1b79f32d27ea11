/** Tests of placing an API validation error at the test form's field it concerns. */
import { expect, test } from 'bun:test';
import { ApiError } from '../../api/api-error';
import { fieldOfError } from './field-of-error';

test('the message tells the field', () => {
  expect(fieldOfError(new ApiError(400, 'bad_request', 'name must not be blank'))).toBe('name');
  expect(fieldOfError(new ApiError(400, 'bad_request', 'body field "name": expected a string'))).toBe('name');
  expect(fieldOfError(new ApiError(400, 'bad_request', 'the script is not a valid k6 test: SyntaxError at 3:1'))).toBe('script');
  expect(fieldOfError(new ApiError(400, 'bad_request', 'body field "script": must not be blank'))).toBe('script');
  expect(fieldOfError(new ApiError(413, 'payload_too_large', 'the body is larger than 1 MiB'))).toBe('script');
  expect(fieldOfError(new ApiError(403, 'forbidden', 'you may not manage tests'))).toBeNull();
  expect(fieldOfError(new ApiError(400, 'plan_limit_tests', 'the starter plan allows 10 tests'))).toBeNull();
  expect(fieldOfError(new ApiError(400, 'bad_request', 'thresholds[1].op must be one of <, <=, >, >= (got "=")'))).toBe('thresholds');
  expect(fieldOfError(new ApiError(400, 'bad_request', 'thresholds[0].endpoint must be an endpoint name, not blank'))).toBe('thresholds');
  expect(fieldOfError(new Error('x'))).toBeNull();
});
