/** Placing an API error about thresholds at the row and field it names. */
import { expect, test } from 'bun:test';
import { ApiError } from '../../api/api-error';
import { thresholdErrorOf } from './threshold-error';

test('the message names the row and the field', () => {
  const op = thresholdErrorOf(new ApiError(400, 'bad_request', 'thresholds[1].op must be one of <, <=, >, >= (got "=")'));
  expect(op).toEqual({ index: 1, field: 'op', message: 'thresholds[1].op must be one of <, <=, >, >= (got "=")' });
  expect(thresholdErrorOf(new ApiError(400, 'bad_request', 'thresholds[0].value is an error rate: a fraction from 0 to 1 (got 2)'))?.field).toBe('value');
  expect(thresholdErrorOf(new ApiError(400, 'bad_request', 'thresholds[3] must be an object {metric, op, value, endpoint?, abort?}'))).toMatchObject({ index: 3, field: null });
  expect(thresholdErrorOf(new ApiError(400, 'bad_request', 'thresholds has 51 items; at most 50 are allowed'))).toMatchObject({ index: null, field: null });
  expect(thresholdErrorOf(new ApiError(400, 'bad_request', 'name must not be blank'))).toBeNull();
  expect(thresholdErrorOf(new ApiError(403, 'forbidden', 'thresholds[0].op'))).toBeNull();
  expect(thresholdErrorOf(new Error('thresholds[0].op'))).toBeNull();
});
