import { expect, test } from 'bun:test';
import { checkTool, specTools, testToolIds } from './test-rules.ts';

test("a test's tool ids: the spec's six always, in the spec's order, then the registered plugins' others", () => {
  expect(testToolIds([])).toEqual([...specTools]);
  expect(testToolIds(['k6', 'custom', 'wrk', 'hey', 'hey'])).toEqual(['k6', 'jmeter', 'locust', 'artillery', 'gatling', 'custom', 'hey', 'wrk']);
});

test('checkTool refuses an id no plugin provides, naming the ones it takes', () => {
  const ids = testToolIds(['hey']);
  expect(checkTool('hey', ids)).toBe('hey');
  expect(checkTool('jmeter', ids)).toBe('jmeter');
  expect(() => checkTool('vegeta', ids)).toThrow('tool must be one of k6, jmeter, locust, artillery, gatling, custom, hey');
});
