/**
 * Label matchers shared by /metrics/query and the Prometheus API: equality and (fully anchored, as in Prometheus)
 * regular expressions, positive and negated. A regex that does not compile is the caller's mistake: a 400.
 */
import { badRequest } from '../../kernel/errors.ts';

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

export function compileMatcher(matcher: LabelMatcher): CompiledMatcher {
  const { op, value } = matcher;
  if (op === '=' || op === '!=') {
    const want = op === '=';
    return { ...matcher, matches: (actual) => ((actual ?? '') === value) === want };
  }
  if (value.length > maxPatternLength) throw badRequest(`the regular expression for ${matcher.label} is longer than ${maxPatternLength} characters`);
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^(?:${value})$`, 'u');
  } catch (error) {
    throw badRequest(`bad regular expression for ${matcher.label}: ${(error as Error).message}`);
  }
  const want = op === '=~';
  return { ...matcher, matches: (actual) => pattern.test(actual ?? '') === want };
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
