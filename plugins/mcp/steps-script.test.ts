import { expect, test } from 'bun:test';
import { validateHttpScript } from '../load-tool-http/http-script.ts';
import { stepsScript } from './steps-script.ts';

test("steps become an http script the http tool accepts, with base_url and default headers when given", () => {
  const steps = [
    { name: 'home', method: 'GET' as const, url: '/', expect: { status: [200, 204], body_contains: 'ok' } },
    { method: 'POST' as const, url: 'https://other.example.test/items', headers: { 'x-trace': '1' }, body: { item: 1 } },
  ];
  const script = stepsScript({ steps, base_url: 'https://shop.example.test/api', headers: { authorization: 'Bearer abc' } });
  expect(JSON.parse(script)).toEqual({ base_url: 'https://shop.example.test/api', defaults: { headers: { authorization: 'Bearer abc' } }, steps });
  expect(validateHttpScript(script)).toBeNull();
  expect(JSON.parse(stepsScript({ steps: [steps[1]!] }))).toEqual({ steps: [steps[1]] });
  // A relative url without base_url is the tool's to refuse, naming the step.
  expect(validateHttpScript(stepsScript({ steps: [{ method: 'GET', url: '/x' }] }))).toContain('base_url');
});
