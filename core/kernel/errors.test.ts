import { expect, test } from 'bun:test';
import { DomainError, notFound } from './errors.ts';
import { errorResponse, isDomainError } from '../http/error-mapper.ts';

/** What a DomainError thrown by a plugin's own copy of the class (the published kit bundles one) looks like here. */
class DomainErrorOfAnotherCopy extends Error {
  constructor(readonly code: 'not_found' | 'conflict', message: string) {
    super(message);
    this.name = 'DomainError';
    Object.defineProperty(this, Symbol.for('loadplane.DomainError'), { value: true });
  }
}

test("a DomainError of another copy of the module is one here too, and answers with its code's status", async () => {
  const theirs = new DomainErrorOfAnotherCopy('conflict', 'the name is taken');
  expect(theirs instanceof DomainError).toBe(true);
  expect(isDomainError(theirs)).toBe(true);
  const response = errorResponse(theirs as unknown as DomainError);
  expect(response.status).toBe(409);
  expect(await response.json()).toEqual({ error: 'conflict', message: 'the name is taken' });
});

test('ours is one; an ordinary error, a look-alike without the brand, and non-objects are not', () => {
  expect(notFound('test') instanceof DomainError).toBe(true);
  expect(new Error('boom') instanceof DomainError).toBe(false);
  expect(Object.assign(new Error('x'), { code: 'not_found', name: 'DomainError' }) instanceof DomainError).toBe(false);
  expect((null as unknown) instanceof DomainError).toBe(false);
  expect(('not_found' as unknown) instanceof DomainError).toBe(false);
});
