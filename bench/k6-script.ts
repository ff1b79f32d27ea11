/** Realistic k6 test scripts (about 1.2-1.8 KB each) for filling a workspace before a benchmark. */

const services = ['checkout', 'catalog', 'search', 'accounts', 'payments', 'inventory', 'shipping', 'reviews', 'cart', 'auth'];
const shapes = ['smoke', 'load', 'stress', 'soak', 'spike'] as const;

/** The i-th of a family of k6 scripts: same structure, different targets, stages and thresholds. */
export function k6Script(i: number): string {
  const service = services[i % services.length]!;
  const shape = shapes[i % shapes.length]!;
  const peak = 10 + ((i * 37) % 190);
  const p95 = 200 + ((i * 53) % 600);
  const errorRate = (0.5 + (i % 5) * 0.25).toFixed(2);
  return `// ${shape} test for the ${service} service (#${i})
import http from 'k6/http';
import { check, group, sleep } from 'k6';
import { Rate, Trend } from 'k6/metrics';

const BASE_URL = __ENV.BASE_URL || 'https://${service}.staging.example.test';
const failed = new Rate('failed_requests');
const listDuration = new Trend('list_duration', true);

export const options = {
  scenarios: {
    ${shape}: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '${1 + (i % 4)}m', target: ${Math.ceil(peak / 2)} },
        { duration: '${3 + (i % 7)}m', target: ${peak} },
        { duration: '1m', target: 0 },
      ],
      gracefulRampDown: '30s',
    },
  },
  thresholds: {
    http_req_duration: ['p(95)<${p95}', 'p(99)<${p95 * 2}'],
    failed_requests: ['rate<${errorRate}'],
    'list_duration{group:::browse}': ['p(90)<${p95}'],
  },
};

export function setup() {
  const res = http.post(\`\${BASE_URL}/api/session\`, JSON.stringify({ user: 'load-${i}', secret: __ENV.SECRET }), {
    headers: { 'Content-Type': 'application/json' },
  });
  check(res, { 'session created': (r) => r.status === 201 });
  return { token: res.json('token') };
}

export default function (data) {
  const params = { headers: { Authorization: \`Bearer \${data.token}\` }, tags: { service: '${service}' } };
  group('browse', () => {
    const res = http.get(\`\${BASE_URL}/api/items?page=\${__ITER % 20}&size=${10 + (i % 40)}\`, params);
    listDuration.add(res.timings.duration);
    failed.add(!check(res, { 'list is 200': (r) => r.status === 200, 'has items': (r) => r.json('items.length') > 0 }));
  });
  group('detail', () => {
    const id = 1 + Math.floor(Math.random() * ${100 + i * 10});
    const res = http.get(\`\${BASE_URL}/api/items/\${id}\`, params);
    failed.add(!check(res, { 'detail is 200 or 404': (r) => r.status === 200 || r.status === 404 }));
  });
  sleep(${(0.5 + (i % 3) * 0.5).toFixed(1)});
}
`;
}
