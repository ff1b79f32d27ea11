/** The message of the error a call throws, checked to be of the expected class; fails when the call does not throw. */
import { expect } from 'bun:test';

export function refusalOf(run: () => unknown, kind: abstract new (...args: never[]) => Error): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(kind);
    return (error as Error).message;
  }
  throw new Error(`expected a ${kind.name}`);
}
