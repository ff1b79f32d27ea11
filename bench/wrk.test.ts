import { describe, expect, test } from 'bun:test';
import { parseWrkOutput, printableCommand } from './wrk.ts';

const sample = `Running 2s test @ http://127.0.0.1:18181/
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   154.67us  139.01us   1.04s    95.25%
    Req/Sec   105.88k    17.37k  120.41k    80.95%
  Latency Distribution
     50%  125.00us
     75%  179.00us
     90%    2.31ms
     99%    1.20s
  220618 requests in 2.10s, 24.62MB read
  Socket errors: connect 0, read 3, write 0, timeout 7
  Non-2xx or 3xx responses: 12
Requests/sec: 105052.04
Transfer/sec:     11.72MB
`;

describe('wrk output', () => {
  test('parses throughput, percentiles in any unit, and errors', () => {
    const parsed = parseWrkOutput(sample);
    expect(parsed.requests).toBe(220618);
    expect(parsed.requestsPerSecond).toBe(105052.04);
    expect(parsed.latency.p50).toBeCloseTo(0.125);
    expect(parsed.latency.p90).toBeCloseTo(2.31);
    expect(parsed.latency.p99).toBe(1200);
    expect(parsed.latency.max).toBe(1040);
    expect(parsed.non2xx).toBe(12);
    expect(parsed.socketErrors).toEqual({ connect: 0, read: 3, write: 0, timeout: 7 });
    expect(parsed.bytesRead).toBe(Math.round(24.62 * 1024 * 1024));
  });

  test('a report without the latency distribution is an error, not zeros', () => {
    expect(() => parseWrkOutput(sample.replace(/^\s+99%.*$/m, ''))).toThrow('99% latency');
  });

  test('the printable command hides the bearer token', () => {
    const command = printableCommand({
      url: 'http://127.0.0.1:1/api/v1/tests',
      threads: 1,
      connections: 64,
      duration: '10s',
      headers: { authorization: 'Bearer eyJhbGciOi.secret.sig' },
    });
    expect(command).toBe('wrk -t1 -c64 -d10s --latency -H "authorization: Bearer <jwt>" http://127.0.0.1:1/api/v1/tests');
  });
});
