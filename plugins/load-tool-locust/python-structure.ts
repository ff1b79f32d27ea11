/**
 * A structural check of Python source, in TypeScript so the control plane needs no Python: strings, comments and
 * brackets are tokenized, then logical lines are checked for block headers without a colon and for indentation that
 * Python would refuse. It finds the common syntax errors of a hand-written locustfile (a missing colon or bracket, an
 * unterminated string, a bad indent), not all of them: Locust reports the rest when the run starts.
 */

interface LogicalLine {
  /** 1-based number of its first physical line. */
  line: number;
  indent: number;
  /** The code with strings emptied and comments dropped. */
  code: string;
}

const opening: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const closing: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** Splits source into logical lines; returns an error message instead when tokens do not close. */
function logicalLines(source: string): LogicalLine[] | string {
  const lines: LogicalLine[] = [];
  const brackets: { char: string; line: number }[] = [];
  let line = 1;
  let code = '';
  let start: { line: number; indent: number } | null = null;
  let atLineStart = true;
  let indent = 0;
  let continued = false;
  let i = 0;
  const endLogical = () => {
    if (start && code.trim() !== '') lines.push({ line: start.line, indent: start.indent, code: code.trim() });
    start = null;
    code = '';
  };
  while (i < source.length) {
    const char = source[i]!;
    if (atLineStart) {
      // Indentation counts only where a logical line begins (not inside brackets or after a backslash).
      let width = 0;
      let j = i;
      while (j < source.length && (source[j] === ' ' || source[j] === '\t')) {
        width = source[j] === '\t' ? width + 8 - (width % 8) : width + 1;
        j++;
      }
      indent = width;
      i = j;
      atLineStart = false;
      continue;
    }
    if (char === '\n') {
      line++;
      if (brackets.length === 0 && !continued) endLogical();
      continued = false;
      atLineStart = brackets.length === 0 && start === null;
      i++;
      continue;
    }
    if (start === null && char !== ' ' && char !== '\t' && char !== '\r' && char !== '#' && char !== '\\') start = { line, indent };
    if (char === '#') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (char === '\\' && (source[i + 1] === '\n' || (source[i + 1] === '\r' && source[i + 2] === '\n'))) {
      continued = true;
      i += source[i + 1] === '\r' ? 2 : 1;
      continue;
    }
    if (char === '"' || char === "'") {
      const triple = source.startsWith(char.repeat(3), i);
      const quote = triple ? char.repeat(3) : char;
      const opened = line;
      i += quote.length;
      for (;;) {
        if (i >= source.length) return `line ${opened}: unterminated ${triple ? 'triple-quoted ' : ''}string`;
        const c = source[i]!;
        if (c === '\\') {
          // An escaped character, also in a raw string (which cannot end on an escaped quote either).
          if (source[i + 1] === '\n') line++;
          i += 2;
          continue;
        }
        if (source.startsWith(quote, i)) {
          i += quote.length;
          break;
        }
        if (c === '\n') {
          if (!triple) return `line ${opened}: unterminated string`;
          line++;
        }
        i++;
      }
      code += '""';
      continue;
    }
    if (char in opening) brackets.push({ char, line });
    else if (char in closing) {
      const top = brackets.pop();
      if (!top) return `line ${line}: unmatched '${char}'`;
      if (top.char !== closing[char]) return `line ${line}: closing '${char}' does not match '${top.char}' opened on line ${top.line}`;
    }
    code += char;
    i++;
  }
  const open = brackets.pop();
  if (open) return `line ${open.line}: '${open.char}' was never closed`;
  endLogical();
  return lines;
}

const blockKeyword = /^(?:async\s+)?(def|class|if|elif|else|for|while|try|except|finally|with)\b/;

/** Whether the code has a colon outside brackets (strings are already emptied). */
function hasTopLevelColon(code: string): boolean {
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c in opening) depth++;
    else if (c in closing) depth--;
    else if (c === ':' && depth === 0 && code[i + 1] !== '=') return true;
  }
  return false;
}

/** Null when the source passes, else `line N: what is wrong`. */
export function checkPythonStructure(source: string): string | null {
  const lines = logicalLines(source.replace(/\r\n?/g, '\n'));
  if (typeof lines === 'string') return lines;
  const indents = [0];
  let opensBlock = false;
  for (const { line, indent, code } of lines) {
    const top = indents[indents.length - 1]!;
    if (opensBlock) {
      if (indent <= top) return `line ${line}: expected an indented block`;
      indents.push(indent);
    } else if (indent > top) {
      return `line ${line}: unexpected indent`;
    } else if (indent < top) {
      while (indents.length > 1 && indents[indents.length - 1]! > indent) indents.pop();
      if (indents[indents.length - 1] !== indent) return `line ${line}: unindent does not match any outer indentation level`;
    }
    const keyword = blockKeyword.exec(code);
    // `else`/`try`/`finally` stand alone; the others need something before their colon (`else if` is not Python).
    if (keyword && !hasTopLevelColon(code)) return `line ${line}: expected ':' after the ${keyword[1]} statement`;
    opensBlock = code.endsWith(':') && hasTopLevelColon(code) && (keyword !== null || /^(match|case)\b/.test(code));
  }
  if (opensBlock) return `line ${lines[lines.length - 1]!.line}: expected an indented block at the end of the file`;
  return null;
}
