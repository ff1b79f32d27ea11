/** The ready-to-run `http` test offered on a first visit: it checks this service's own /healthz. */

export function firstTestScript(origin: string): string {
  return [
    '# A first load test with the built-in http tool: each virtual user runs these steps in order, again and again.',
    '# Pick a load configuration when you run it (without one, the steps run once with one virtual user).',
    `base_url: ${origin}`,
    'steps:',
    '  - name: health',
    '    method: GET',
    '    url: /healthz',
    '    expect:',
    '      status: 200',
    '      body_contains: ok',
    '',
  ].join('\n');
}

export const FIRST_TEST_NAME = 'Health check (first http test)';
