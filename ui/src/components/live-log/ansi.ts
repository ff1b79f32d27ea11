/** ANSI escape handling for log lines: SGR colours (16 colours, bold, italic, underline) to CSS classes; other escapes stripped. */

/** A run of text with the CSS classes of its style ('' when unstyled). */
export interface AnsiSegment {
  text: string;
  className: string;
}

interface Style {
  fg: number; // -1 default, 0..15
  bg: number;
  bold: boolean;
  italic: boolean;
  underline: boolean;
}

const ESC = '\x1b';

function classOf(style: Style): string {
  let name = '';
  if (style.fg >= 0) name += ` ansi-fg-${style.fg}`;
  if (style.bg >= 0) name += ` ansi-bg-${style.bg}`;
  if (style.bold) name += ' ansi-bold';
  if (style.italic) name += ' ansi-italic';
  if (style.underline) name += ' ansi-underline';
  return name.slice(1);
}

function applySgr(style: Style, params: string): void {
  const codes = params === '' ? [0] : params.split(/[;:]/).map((part) => (part === '' ? 0 : Number(part)));
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code === 0) {
      style.fg = -1;
      style.bg = -1;
      style.bold = style.italic = style.underline = false;
    } else if (code === 1) style.bold = true;
    else if (code === 3) style.italic = true;
    else if (code === 4) style.underline = true;
    else if (code === 22) style.bold = false;
    else if (code === 23) style.italic = false;
    else if (code === 24) style.underline = false;
    else if (code >= 30 && code <= 37) style.fg = code - 30;
    else if (code === 39) style.fg = -1;
    else if (code >= 40 && code <= 47) style.bg = code - 40;
    else if (code === 49) style.bg = -1;
    else if (code >= 90 && code <= 97) style.fg = code - 90 + 8;
    else if (code >= 100 && code <= 107) style.bg = code - 100 + 8;
    else if (code === 38 || code === 48) {
      // 256-colour and true-colour: beyond the 16 colours shown; skip their arguments.
      const mode = codes[i + 1];
      if (mode === 5) {
        const index = codes[i + 2] ?? -1;
        if (index >= 0 && index < 16) {
          if (code === 38) style.fg = index;
          else style.bg = index;
        }
        i += 2;
      } else if (mode === 2) i += 4;
      else i += 1;
    }
  }
}

/** Index just past the escape sequence starting at `at` (an ESC), and its SGR parameters when it is one. */
function scanEscape(text: string, at: number): { end: number; sgr: string | null } {
  const next = text.charCodeAt(at + 1);
  if (next === 0x5b /* [ */) {
    // CSI: parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, one final byte 0x40-0x7E.
    let i = at + 2;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c >= 0x40 && c <= 0x7e) {
        const sgr = c === 0x6d /* m */ ? text.slice(at + 2, i) : null;
        return { end: i + 1, sgr: sgr !== null && /^[\d;:]*$/.test(sgr) ? sgr : null };
      }
      if (c < 0x20 || c > 0x3f) {
        if (c < 0x20 || c > 0x2f) return { end: i, sgr: null }; // malformed: drop what was read
      }
      i++;
    }
    return { end: text.length, sgr: null };
  }
  if (next === 0x5d /* ] */ || next === 0x50 /* P */ || next === 0x5f /* _ */ || next === 0x5e /* ^ */) {
    // OSC, DCS, APC, PM: up to BEL or ST (ESC \).
    for (let i = at + 2; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x07) return { end: i + 1, sgr: null };
      if (c === 0x1b && text.charCodeAt(i + 1) === 0x5c) return { end: i + 2, sgr: null };
    }
    return { end: text.length, sgr: null };
  }
  if (Number.isNaN(next)) return { end: at + 1, sgr: null };
  // Two-character escapes (ESC 7, ESC =, ESC ( B takes one more).
  if (next >= 0x20 && next <= 0x2f) return { end: Math.min(text.length, at + 3), sgr: null };
  return { end: at + 2, sgr: null };
}

/** Splits a line into styled segments; every escape sequence is removed from the text. */
export function parseAnsi(text: string): AnsiSegment[] {
  if (!text.includes(ESC)) return [{ text, className: '' }];
  const style: Style = { fg: -1, bg: -1, bold: false, italic: false, underline: false };
  const segments: AnsiSegment[] = [];
  let className = '';
  let run = '';
  let from = 0;
  for (;;) {
    const at = text.indexOf(ESC, from);
    run += text.slice(from, at === -1 ? text.length : at);
    if (at === -1) break;
    const { end, sgr } = scanEscape(text, at);
    from = end;
    if (sgr !== null) {
      applySgr(style, sgr);
      const next = classOf(style);
      if (next !== className) {
        if (run) segments.push({ text: run, className });
        run = '';
        className = next;
      }
    }
  }
  if (run || segments.length === 0) segments.push({ text: run, className });
  return segments;
}

/** The line's text without any escape sequence (for search and plain-text display). */
export function stripAnsi(text: string): string {
  if (!text.includes(ESC)) return text;
  let plain = '';
  let from = 0;
  for (;;) {
    const at = text.indexOf(ESC, from);
    plain += text.slice(from, at === -1 ? text.length : at);
    if (at === -1) return plain;
    from = scanEscape(text, at).end;
  }
}
