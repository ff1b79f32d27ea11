/**
 * Label matchers shared by /metrics/query and the Prometheus API: equality and (fully anchored, as in Prometheus)
 * regular expressions, positive and negated. Regexes run on RE2 (re2js, pure JavaScript): matching is linear in the
 * input, so no pattern a caller sends can make the service backtrack for seconds (`(.*){30}Z` froze every request on
 * the JavaScript engine). RE2 is also Prometheus' own syntax, so what works in Grafana works here. The commonest shapes
 * (`prefix.*`, `a|b`) skip the engine altogether (literal-regex.ts), and patterns whose backtracking is provably bounded
 * (flat sequences such as `id-[0-9]{2}[a-f]{2}`) run on the JavaScript engine, many times faster than RE2 on them
 * (bounded-regex.ts). A regex that does not compile is the caller's mistake: a 400.
 */
import { RE2JS } from 're2js';
import { badRequest } from '../../kernel/errors.ts';
import { boundedRegex } from './bounded-regex.ts';
import { literalRegex } from './literal-regex.ts';

export type MatchOp = '=' | '!=' | '=~' | '!~';

export interface LabelMatcher {
  label: string;
  op: MatchOp;
  value: string;
}

/** Long patterns buy nothing over our short label values and cost compile time. */
export const maxPatternLength = 1_000;

export interface CompiledMatcher extends LabelMatcher {
  matches(actual: string | undefined): boolean;
}

/** Prometheus compiles `^(?s:<value>)$`: `.` matches a newline too, and the whole value must match. */
function compileRegex(label: string, value: string): (text: string) => boolean {
  if (value.length > maxPatternLength) throw badRequest(`the regular expression for ${label} is longer than ${maxPatternLength} characters`);
  const literal = literalRegex(value);
  if (literal) return literal;
  const bounded = boundedRegex(value);
  if (bounded) return bounded;
  let pattern: RE2JS;
  try {
    pattern = RE2JS.compile(value, RE2JS.DOTALL);
  } catch (error) {
    throw badRequest(`bad regular expression for ${label}: ${(error as Error).message} (RE2 syntax, as in Prometheus)`);
  }
  return (text) => pattern.testExact(text);
}

export function compileMatcher(matcher: LabelMatcher): CompiledMatcher {
  const { op, value } = matcher;
  if (op === '=' || op === '!=') {
    const want = op === '=';
    return { ...matcher, matches: (actual) => ((actual ?? '') === value) === want };
  }
  const test = compileRegex(matcher.label, value);
  const want = op === '=~';
  return { ...matcher, matches: (actual) => test(actual ?? '') === want };
}

/** A filter value of /metrics/query: `value`, `!value`, `~regex` or `!~regex`. */
export function parseFilterValue(label: string, raw: string): LabelMatcher {
  if (raw.startsWith('!~')) return { label, op: '!~', value: raw.slice(2) };
  if (raw.startsWith('~')) return { label, op: '=~', value: raw.slice(1) };
  if (raw.startsWith('!')) return { label, op: '!=', value: raw.slice(1) };
  return { label, op: '=', value: raw };
}

export const matchesAll = (matchers: readonly CompiledMatcher[], labels: Readonly<Record<string, string>>) =>
  matchers.every((m) => m.matches(labels[m.label]));
