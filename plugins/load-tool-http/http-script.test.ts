import { describe, expect, test } from 'bun:test';
import { parseHttpScript, validateHttpScript } from './http-script.ts';

const steps = (script: string) => {
  const parsed = parseHttpScript(script);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.steps;
};

describe('good scripts', () => {
  test('YAML: relative urls join base_url as a path, names default to METHOD path, headers merge in lower case', () => {
    const script = `
base_url: http://api.internal:8080/v1/
defaults:
  headers:
    Authorization: Bearer abc
    X-Count: 5
steps:
  - method: get
    url: /users?page=2
  - name: create a user
    method: POST
    url: users
    headers: {authorization: Bearer other}
    body: {name: Ann, tags: [a, b]}
    expect: {status: [200, 201], body_contains: '"id"'}
  - method: PUT
    url: https://other.example/x
    headers: {Content-Type: text/plain}
    body: plain text
    expect: {status: 204}
  - method: GET
    url: "?q=1"
`;
    expect(steps(script)).toEqual([
      {
        name: 'GET /v1/users',
        method: 'GET',
        url: 'http://api.internal:8080/v1/users?page=2',
        headers: { authorization: 'Bearer abc', 'x-count': '5' },
        body: null,
        expectStatus: null,
        bodyContains: null,
      },
      {
        name: 'create a user',
        method: 'POST',
        url: 'http://api.internal:8080/v1/users',
        headers: { authorization: 'Bearer other', 'x-count': '5', 'content-type': 'application/json' },
        body: '{"name":"Ann","tags":["a","b"]}',
        expectStatus: [200, 201],
        bodyContains: '"id"',
      },
      {
        name: 'PUT /x',
        method: 'PUT',
        url: 'https://other.example/x',
        // A content type the step sets is kept; a string body is sent as written.
        headers: { authorization: 'Bearer abc', 'x-count': '5', 'content-type': 'text/plain' },
        body: 'plain text',
        expectStatus: [204],
        bodyContains: null,
      },
      { name: 'GET /v1', method: 'GET', url: 'http://api.internal:8080/v1?q=1', headers: { authorization: 'Bearer abc', 'x-count': '5' }, body: null, expectStatus: null, bodyContains: null },
    ]);
  });

  test('JSON is accepted as it is (JSON is YAML), absolute urls need no base_url', () => {
    const json = JSON.stringify({ steps: [{ method: 'DELETE', url: 'http://127.0.0.1:9/item/7', expect: { status: 404 } }] });
    expect(validateHttpScript(json)).toBeNull();
    expect(steps(json)[0]).toMatchObject({ name: 'DELETE /item/7', url: 'http://127.0.0.1:9/item/7', expectStatus: [404] });
  });

  test('a JSON body with a content type from the defaults keeps it', () => {
    const [step] = steps('defaults: {headers: {content-type: application/vnd.api+json}}\nsteps: [{method: PATCH, url: "http://h/x", body: [1, 2]}]');
    expect(step).toMatchObject({ body: '[1,2]', headers: { 'content-type': 'application/vnd.api+json' } });
  });
});

describe('bad scripts: a message naming the step and the field', () => {
  const cases: [string, string][] = [
    ['', 'script must not be empty'],
    ['steps: [unclosed', 'the script is not valid YAML or JSON'],
    ['- GET http://x/', 'the script must be a mapping with steps'],
    ['steps: []', 'steps must be a non-empty list of steps'],
    ['base_url: http://h\n', 'steps must be a non-empty list of steps'],
    ['stages: []\nsteps: [{method: GET, url: "http://h/"}]', 'the script: unknown field "stages" (allowed: base_url, defaults, steps)'],
    ['base_url: ftp://h/\nsteps: [{method: GET, url: /}]', 'base_url: "ftp://h/" must be an http or https URL'],
    ['base_url: 42\nsteps: [{method: GET, url: /}]', 'base_url must be an http or https URL'],
    ['defaults: {timeout: 5}\nsteps: [{method: GET, url: "http://h/"}]', 'defaults: unknown field "timeout" (allowed: headers)'],
    ['defaults: {headers: {"bad header": x}}\nsteps: [{method: GET, url: "http://h/"}]', 'defaults: "bad header" is not a valid header name'],
    ['steps: [GET /]', 'steps[0] must be a mapping with method and url'],
    ['steps: [{name: login, method: FETCH, url: "http://h/"}]', 'steps[0] ("login"): method "FETCH" is not one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'],
    ['steps: [{url: "http://h/"}]', 'steps[0]: method is required'],
    ['steps: [{method: GET}]', 'steps[0]: url is required'],
    ['steps: [{method: GET, url: "http://h/"}, {name: home, method: GET, url: /home}]', 'steps[1] ("home"): url "/home" is relative but the script has no base_url'],
    ['steps: [{method: GET, url: "file:///etc/passwd"}]', 'steps[0]: url: "file:///etc/passwd" must be an http or https URL'],
    ['steps: [{method: GET, url: "//h/x"}]', 'steps[0]: url "//h/x" must be absolute (http:// or https://) or a path relative to base_url'],
    ['steps: [{method: GET, url: "http://h/", header: {a: b}}]', 'steps[0]: unknown field "header" (allowed: name, method, url, headers, body, expect)'],
    ['steps: [{method: GET, url: "http://h/", headers: [a]}]', 'steps[0]: headers must be a mapping of header names to values'],
    ['steps: [{method: GET, url: "http://h/", headers: {a: {b: c}}}]', 'steps[0]: header "a" must be a string'],
    ['steps: [{method: GET, url: "http://h/", body: x}]', 'steps[0]: a GET request cannot have a body'],
    ['steps: [{method: POST, url: "http://h/", body: 5}]', 'steps[0]: body must be a string or a JSON object'],
    ['steps: [{method: POST, url: "http://h/", body: null}]', 'steps[0]: body must be a string or a JSON object'],
    ['steps: [{method: GET, url: "http://h/", expect: 200}]', 'steps[0]: expect must be a mapping with status and/or body_contains'],
    ['steps: [{method: GET, url: "http://h/", expect: {code: 200}}]', 'steps[0]: expect: unknown field "code" (allowed: status, body_contains)'],
    ['steps: [{method: GET, url: "http://h/", expect: {status: 999}}]', 'steps[0]: expect.status 999 is not an HTTP status (an integer from 100 to 599)'],
    ['steps: [{method: GET, url: "http://h/", expect: {status: [200, "ok"]}}]', 'steps[0]: expect.status "ok" is not an HTTP status'],
    ['steps: [{method: GET, url: "http://h/", expect: {status: []}}]', 'steps[0]: expect.status must be a status or a list of 1 to 20 statuses'],
    ['steps: [{method: GET, url: "http://h/", expect: {body_contains: ""}}]', 'steps[0]: expect.body_contains must be a non-empty string'],
    ['steps: [{method: HEAD, url: "http://h/", expect: {body_contains: x}}]', 'steps[0]: a HEAD answer has no body for expect.body_contains'],
    ['steps: [{name: "", method: GET, url: "http://h/"}]', 'steps[0]: name must be a non-empty string'],
    [`steps: [{name: "${'n'.repeat(201)}", method: GET, url: "http://h/"}]`, 'name is longer than 200 characters'],
  ];

  for (const [script, message] of cases) {
    test(message, () => {
      expect(validateHttpScript(script)).toContain(message);
    });
  }

  test('at most 100 steps', () => {
    const many = `steps:\n${'  - {method: GET, url: "http://h/"}\n'.repeat(101)}`;
    expect(validateHttpScript(many)).toBe('steps has 101 steps; at most 100');
    expect(validateHttpScript(`steps:\n${'  - {method: GET, url: "http://h/"}\n'.repeat(100)}`)).toBeNull();
  });
});
