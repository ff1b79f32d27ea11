/**
 * A small recursive-descent parser for Loadplane's PromQL subset (see ast.ts). Whatever falls outside the subset is a
 * clear bad_data error naming what is supported, never a silent misreading.
 */
import type { LabelMatcher, MatchOp } from '../label-matchers.ts';
import { parseDuration } from '../time-params.ts';
import { aggregationOps, type AggregationOp, type Expr, rangeFunctions, type RangeFunction } from './ast.ts';

export class PromqlError extends Error {}

type Token = { kind: 'ident' | 'number' | 'string' | 'duration' | 'op'; text: string; at: number };

const maxQueryLength = 10_000;
const identStart = /[A-Za-z_:]/;
const identPart = /[A-Za-z0-9_:]/;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (identStart.test(c)) {
      const at = i;
      while (i < source.length && identPart.test(source[i]!)) i++;
      tokens.push({ kind: 'ident', text: source.slice(at, i), at });
    } else if (/[0-9.]/.test(c)) {
      const match = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(i));
      if (!match) throw new PromqlError(`unexpected character ${JSON.stringify(c)} at position ${i}`);
      tokens.push({ kind: 'number', text: match[0], at: i });
      i += match[0].length;
    } else if (c === '"' || c === "'" || c === '`') {
      const at = i++;
      let text = '';
      while (i < source.length && source[i] !== c) {
        if (source[i] === '\\' && c !== '`') {
          const next = source[++i];
          text += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
          i++;
        } else text += source[i++];
      }
      if (i >= source.length) throw new PromqlError(`unterminated string at position ${at}`);
      i++;
      tokens.push({ kind: 'string', text, at });
    } else if (c === '[') {
      const close = source.indexOf(']', i);
      if (close < 0) throw new PromqlError(`unclosed [ at position ${i}`);
      tokens.push({ kind: 'duration', text: source.slice(i + 1, close).trim(), at: i });
      i = close + 1;
    } else {
      const two = source.slice(i, i + 2);
      const op = ['!=', '=~', '!~', '=='].includes(two) ? two : c;
      if (!['(', ')', '{', '}', ',', '=', '!=', '=~', '!~', '+', '-', '*', '/'].includes(op)) {
        throw new PromqlError(`unexpected ${JSON.stringify(op)} at position ${i}: Loadplane answers selectors, rate, increase, sum/avg/min/max/count by, histogram_quantile and + - * /`);
      }
      tokens.push({ kind: 'op', text: op, at: i });
      i += op.length;
    }
  }
  return tokens;
}

export function parsePromql(source: string): Expr {
  if (source.length > maxQueryLength) throw new PromqlError(`the query is longer than ${maxQueryLength} characters`);
  const tokens = tokenize(source);
  let position = 0;
  const peek = () => tokens[position];
  const next = () => tokens[position++];
  const where = () => (peek() ? `at position ${peek()!.at}` : 'at the end of the query');
  const isOp = (text: string) => peek()?.kind === 'op' && peek()!.text === text;
  const expectOp = (text: string) => {
    if (!isOp(text)) throw new PromqlError(`expected ${JSON.stringify(text)} ${where()}`);
    position++;
  };

  function matchers(): LabelMatcher[] {
    const out: LabelMatcher[] = [];
    expectOp('{');
    while (!isOp('}')) {
      const label = next();
      if (!label || label.kind !== 'ident') throw new PromqlError(`expected a label name ${where()}`);
      const op = next();
      if (!op || op.kind !== 'op' || !['=', '!=', '=~', '!~'].includes(op.text)) throw new PromqlError(`expected =, !=, =~ or !~ after ${label.text}`);
      const value = next();
      if (!value || value.kind !== 'string') throw new PromqlError(`expected a quoted value for ${label.text}`);
      out.push({ label: label.text, op: op.text as MatchOp, value: value.text });
      if (!isOp('}')) expectOp(',');
    }
    expectOp('}');
    return out;
  }

  function selector(name: string | null): Expr & { type: 'selector' } {
    const found = [...(name ? [{ label: '__name__', op: '=' as const, value: name }] : []), ...(isOp('{') ? matchers() : [])];
    if (found.length === 0) throw new PromqlError('a selector needs a metric name or a label matcher');
    let range: number | null = null;
    if (peek()?.kind === 'duration') {
      try {
        range = parseDuration(next()!.text, 'range');
      } catch (error) {
        throw new PromqlError((error as Error).message);
      }
    }
    return { type: 'selector', matchers: found, range };
  }

  function grouping() {
    const word = peek();
    if (word?.kind !== 'ident' || (word.text !== 'by' && word.text !== 'without')) return null;
    position++;
    expectOp('(');
    const labels: string[] = [];
    while (!isOp(')')) {
      const label = next();
      if (!label || label.kind !== 'ident') throw new PromqlError(`expected a label name in ${word.text}(...) ${where()}`);
      labels.push(label.text);
      if (!isOp(')')) expectOp(',');
    }
    expectOp(')');
    return { without: word.text === 'without', labels };
  }

  function args(): Expr[] {
    expectOp('(');
    const out: Expr[] = [];
    while (!isOp(')')) {
      out.push(expression());
      if (!isOp(')')) expectOp(',');
    }
    expectOp(')');
    return out;
  }

  function primary(): Expr {
    const token = peek();
    if (!token) throw new PromqlError('unexpected end of the query');
    if (token.kind === 'number') {
      position++;
      return { type: 'number', value: Number(token.text) };
    }
    if (token.kind === 'op' && token.text === '(') {
      position++;
      const inner = expression();
      expectOp(')');
      return inner;
    }
    if (token.kind === 'op' && token.text === '{') return selector(null);
    if (token.kind !== 'ident') throw new PromqlError(`unexpected ${JSON.stringify(token.text)} at position ${token.at}`);
    position++;
    const name = token.text;
    if ((aggregationOps as readonly string[]).includes(name) && (isOp('(') || peek()?.text === 'by' || peek()?.text === 'without')) {
      const before = grouping();
      const inner = args();
      if (inner.length !== 1) throw new PromqlError(`${name} takes one expression`);
      const after = grouping();
      if (before && after) throw new PromqlError(`${name} has two groupings`);
      return { type: 'aggregate', op: name as AggregationOp, grouping: before ?? after, arg: inner[0]! };
    }
    if (isOp('(')) {
      const inner = args();
      if ((rangeFunctions as readonly string[]).includes(name)) {
        const arg = inner[0];
        if (inner.length !== 1 || arg?.type !== 'selector' || arg.range === null) throw new PromqlError(`${name} takes one range selector, such as ${name}(loadplane_requests_total[1m])`);
        return { type: 'range_call', func: name as RangeFunction, arg };
      }
      if (name === 'histogram_quantile') {
        if (inner.length !== 2) throw new PromqlError('histogram_quantile takes φ and a vector of histograms');
        return { type: 'quantile', phi: inner[0]!, arg: inner[1]! };
      }
      throw new PromqlError(`unsupported function ${name}: Loadplane answers rate, increase, histogram_quantile and sum/avg/min/max/count`);
    }
    return selector(name);
  }

  function unary(): Expr {
    if (isOp('-') || isOp('+')) {
      const sign = next()!.text;
      const operand = unary();
      return sign === '-' ? { type: 'binary', op: '*', left: { type: 'number', value: -1 }, right: operand } : operand;
    }
    return primary();
  }

  function product(): Expr {
    let left = unary();
    while (isOp('*') || isOp('/')) {
      const op = next()!.text as '*' | '/';
      left = { type: 'binary', op, left, right: unary() };
    }
    return left;
  }

  function expression(): Expr {
    let left = product();
    while (isOp('+') || isOp('-')) {
      const op = next()!.text as '+' | '-';
      left = { type: 'binary', op, left, right: product() };
    }
    return left;
  }

  if (tokens.length === 0) throw new PromqlError('the query is empty');
  const expr = expression();
  if (position < tokens.length) throw new PromqlError(`unexpected ${JSON.stringify(peek()!.text)} at position ${peek()!.at}`);
  return expr;
}
