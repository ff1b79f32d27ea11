/**
 * Regex label matchers as the service runs them (string tests for literal shapes, the JavaScript engine for patterns
 * with bounded backtracking, RE2 for the rest) against the plain JavaScript engine they replaced, side by side in one
 * run: first the matcher alone over the label values of 5,000 series (ordinary patterns, as dashboards write them),
 * then the review's attack patterns (the service's CPU for each over the same values), then GET
 * /api/v1/metrics/query with those matchers over 5,000 stored series, end to end.
 *
 *   ./node_modules/.bin/bun bench/label-matchers.ts [pglite] [postgres] [--rounds 7] [--iterations 30]
 */
import { RE2JS } from 're2js';
import { boundedRegex } from '../core/domain/metrics/bounded-regex.ts';
import { compileMatcher } from '../core/domain/metrics/label-matchers.ts';
import { literalRegex } from '../core/domain/metrics/literal-regex.ts';
import { createMetricRun, insertPoints, type PointSpec } from '../tests/helpers/metric-points.ts';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../tests/helpers/postgres-server.ts';
import { startTestService } from '../tests/helpers/test-service.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const rounds = option('rounds', 7);
const iterations = option('iterations', 30);
const modes = args.filter((a) => a === 'pglite' || a === 'postgres');
if (modes.length === 0) modes.push('pglite');

const seriesCount = 5_000;
const machineIds = Array.from({ length: seriesCount }, (_, i) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`);
/** Ordinary patterns: a prefix, an alternation of ids, a negation, a character class, a match-all. */
const patterns: [string, string][] = [
  ['prefix', '00000000-0000-4000-8000-0000000001.*'],
  ['alternation of 3 ids', `${machineIds[10]}|${machineIds[2000]}|${machineIds[4999]}`],
  ['contains', '.*-00000000a.*'],
  ['character class', '00000000-0000-4000-8000-00000000[0-9]{2}[a-f]{2}'],
  ['match-all', '.*'],
];

/** The matcher as it was before RE2: the JavaScript engine, anchored the same way. */
const javascriptMatcher = (value: string) => {
  const pattern = new RegExp(`^(?:${value})$`, 'u');
  return (text: string) => pattern.test(text);
};
/** What the service runs: compileMatcher, with its shortcuts. */
const serviceMatcher = (value: string) => {
  const matcher = compileMatcher({ label: 'machine', op: '=~', value });
  return (text: string) => matcher.matches(text);
};

/** Which of the service's paths a pattern takes. */
const pathOf = (value: string) => (literalRegex(value) ? 'string tests' : boundedRegex(value) ? 'JavaScript, bounded' : 'RE2');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Microseconds to compile a pattern and test it against every series' value once. */
function timeMatcher(build: (value: string) => (text: string) => boolean, value: string): number {
  const started = performance.now();
  const test = build(value);
  let matched = 0;
  for (const id of machineIds) if (test(id)) matched++;
  if (matched < 0) throw new Error('unreachable');
  return (performance.now() - started) * 1000;
}

function matcherAlone(): string[] {
  const rows = ['| pattern | service path | JavaScript µs | service µs | service / JavaScript |', '|---|---|---|---|---|'];
  for (const [name, value] of patterns) {
    // Both engines agree on every value first: the comparison is of equals.
    const js = javascriptMatcher(value);
    const service = serviceMatcher(value);
    for (const id of machineIds) if (js(id) !== service(id)) throw new Error(`${name}: the engines disagree on ${id}`);
    for (let i = 0; i < 3; i++) {
      timeMatcher(javascriptMatcher, value);
      timeMatcher(serviceMatcher, value);
    }
    const ratios: number[] = [];
    const jsTimes: number[] = [];
    const serviceTimes: number[] = [];
    // Alternating order each round, so neither engine always runs on a warmer cache.
    for (let round = 0; round < rounds; round++) {
      let jsMicros: number;
      let serviceMicros: number;
      if (round % 2 === 0) {
        jsMicros = timeMatcher(javascriptMatcher, value);
        serviceMicros = timeMatcher(serviceMatcher, value);
      } else {
        serviceMicros = timeMatcher(serviceMatcher, value);
        jsMicros = timeMatcher(javascriptMatcher, value);
      }
      jsTimes.push(jsMicros);
      serviceTimes.push(serviceMicros);
      ratios.push(serviceMicros / jsMicros);
    }
    rows.push(`| ${name} | ${pathOf(value)} | ${median(jsTimes).toFixed(0)} | ${median(serviceTimes).toFixed(0)} | ${median(ratios).toFixed(2)} |`);
  }
  return rows;
}

/** Patterns that backtrack for seconds per value on the JavaScript engine (issue 17's review): CPU on the service's path. */
const attackPatterns = ['(.*){30}Z', '(a|aa)*Z', '([0-9a-f-]*)*Z', '(.*.*)*Z', '(x+x+)+y'];

function attacks(): string[] {
  const rows = ['| pattern | service path | CPU ms (user + system), all values |', '|---|---|---|'];
  for (const value of attackPatterns) {
    const before = process.cpuUsage();
    const matches = serviceMatcher(value);
    let matched = 0;
    for (const id of machineIds) if (matches(id)) matched++;
    const used = process.cpuUsage(before);
    if (matched !== 0) throw new Error(`${value}: matched ${matched} ids`);
    rows.push(`| \`${value}\` | ${pathOf(value)} | ${((used.user + used.system) / 1000).toFixed(1)} |`);
  }
  return rows;
}

async function endToEnd(mode: string): Promise<string[]> {
  let postgres: Awaited<ReturnType<typeof startPostgresServer>> = null;
  if (mode === 'postgres') {
    postgres = await startPostgresServer();
    if (!postgres) {
      console.error(POSTGRES_SKIP_MESSAGE);
      return [];
    }
  }
  const ts = await startTestService({ database: postgres ? postgres.url : 'memory' });
  try {
    const owner = await ts.createUser('bench-label-matchers');
    const run = await createMetricRun(ts, owner, 'bench');
    const end = Math.floor(Date.now() / 1000);
    // One point per series: 5,000 machines of one run, within one minute.
    const points: PointSpec[] = machineIds.map((machineId, i) => ({ machineId, t: end - 60 + (i % 60), latencies: [10, 20, 30] }));
    await insertPoints(ts, run, points);
    const rows: string[] = [];
    for (const [name, value] of [['equality (no regex)', ''], ...patterns] as [string, string][]) {
      const filter = value ? `machine=~${encodeURIComponent(value)}` : `machine=${machineIds[42]}`;
      const path = `/api/v1/metrics/query?metric=requests&start=${end - 120}&end=${end}&step=60s&${filter}`;
      const call = async () => {
        const response = await ts.request(path, { token: owner });
        if (response.status !== 200) throw new Error(`${name}: ${response.status} ${(await response.text()).slice(0, 300)}`);
        return (await response.json()) as { series: unknown[] };
      };
      for (let i = 0; i < 3; i++) await call();
      const millis: number[] = [];
      for (let i = 0; i < iterations; i++) {
        const at = performance.now();
        await call();
        millis.push(performance.now() - at);
      }
      rows.push(`| ${mode} | ${name} | ${median(millis).toFixed(1)} |`);
    }
    return rows;
  } finally {
    await ts.stop();
    await postgres?.stop();
  }
}

console.log(`Label matcher alone: compile + test the values of ${seriesCount} series, median of ${rounds} rounds (alternating order)\n`);
console.log(matcherAlone().join('\n'));
console.log(`\nThe review's attack patterns: the service's CPU to compile each and test it against the ${seriesCount} values\n`);
console.log(attacks().join('\n'));
// RE2's exact-match entry point is the DFA; it must be what the product uses, not a slower capture-tracking path.
if (!RE2JS.compile('a').testExact('a')) throw new Error('re2js testExact is broken');
const table = ['| database | filter | p50 ms |', '|---|---|---|'];
for (const mode of modes) table.push(...(await endToEnd(mode)));
console.log(`\nGET /api/v1/metrics/query over ${seriesCount} series (in-process, ${iterations} calls each, the service's matchers)\n`);
console.log(table.join('\n'));
