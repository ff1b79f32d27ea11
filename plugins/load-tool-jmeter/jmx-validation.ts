/**
 * Checks on the server (no JVM there) that a script is a JMeter test plan: well-formed XML (a small scanner, enough to
 * catch truncated or hand-broken files), a `jmeterTestPlan` root, and at least one enabled thread group to run.
 */

/** A message for the first well-formedness problem, or null. Tags must nest; comments, CDATA and PIs are skipped. */
export function xmlProblem(text: string): string | null {
  const open: string[] = [];
  let rootSeen = false;
  let i = 0;
  const lineAt = (at: number) => text.slice(0, at).split('\n').length;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt === -1) {
      if (open.length === 0 && text.slice(i).trim() !== '') return `text after the root element on line ${lineAt(i)}`;
      break;
    }
    if (open.length === 0 && text.slice(i, lt).trim() !== '') return `text outside the root element on line ${lineAt(i)}`;
    const skip = (start: string, end: string): number | string => {
      const close = text.indexOf(end, lt + start.length);
      return close === -1 ? `unterminated ${start} on line ${lineAt(lt)}` : close + end.length;
    };
    let next: number | string;
    if (text.startsWith('<!--', lt)) next = skip('<!--', '-->');
    else if (text.startsWith('<![CDATA[', lt)) next = open.length ? skip('<![CDATA[', ']]>') : `CDATA outside the root element on line ${lineAt(lt)}`;
    else if (text.startsWith('<?', lt)) next = skip('<?', '?>');
    else if (text.startsWith('<!', lt)) next = skip('<!', '>'); // a DOCTYPE (without an internal subset)
    else {
      // A tag: find its end outside quoted attribute values.
      let j = lt + 1;
      let quote: string | null = null;
      while (j < text.length && (quote || text[j] !== '>')) {
        const c = text[j]!;
        if (quote) {
          if (c === quote) quote = null;
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '<') return `a "<" inside a tag on line ${lineAt(j)}`;
        j++;
      }
      if (j >= text.length) return `unterminated tag on line ${lineAt(lt)}`;
      const body = text.slice(lt + 1, j);
      const closing = body.startsWith('/');
      const selfClosing = !closing && body.endsWith('/');
      const name = /^\/?\s*([A-Za-z_:][-A-Za-z0-9_.:]*)/.exec(body)?.[1];
      if (!name) return `a malformed tag on line ${lineAt(lt)}`;
      if (closing) {
        const expected = open.pop();
        if (expected !== name) return expected ? `</${name}> closes <${expected}> on line ${lineAt(lt)}` : `</${name}> without an opening tag on line ${lineAt(lt)}`;
      } else {
        if (open.length === 0 && rootSeen) return `a second root element <${name}> on line ${lineAt(lt)}`;
        rootSeen = true;
        if (!selfClosing) open.push(name);
      }
      next = j + 1;
    }
    if (typeof next === 'string') return next;
    i = next;
  }
  if (open.length > 0) return `<${open[open.length - 1]}> is never closed`;
  if (!rootSeen) return 'no root element';
  return null;
}

/** The root element's name, after the prolog (XML declaration, comments, DOCTYPE). */
function rootName(text: string): string | null {
  const withoutProlog = text.replace(/^\uFEFF?\s*(<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<![^>]*>\s*)*/, '');
  return /^<([A-Za-z_:][-A-Za-z0-9_.:]*)/.exec(withoutProlog)?.[1] ?? null;
}

/** Enabled thread groups: any element whose testclass ends in ThreadGroup (ThreadGroup, SetupThreadGroup, plugins'). */
export const threadGroupTag = /<([A-Za-z_][-\w.]*)\s[^>]*\btestclass="[^"]*ThreadGroup"[^>]*>/g;

export function validateJmeterScript(script: string): string | null {
  if (typeof script !== 'string' || script.trim().length === 0) return 'script must not be empty';
  if (script.includes('\0')) return 'script must be text: it contains a NUL byte';
  if (!script.trimStart().startsWith('<')) return 'a JMeter script must be a .jmx test plan (XML starting with <?xml or <jmeterTestPlan); this is not XML';
  const problem = xmlProblem(script);
  if (problem) return `the .jmx test plan is not well-formed XML: ${problem}`;
  const root = rootName(script);
  if (root !== 'jmeterTestPlan') return `a .jmx test plan's root element is <jmeterTestPlan>, not <${root ?? '?'}>`;
  const groups = [...script.matchAll(threadGroupTag)].filter((match) => !/\benabled="false"/.test(match[0]));
  if (groups.length === 0) return 'the .jmx test plan has no enabled thread group (a ThreadGroup holding the samplers to run)';
  return null;
}
