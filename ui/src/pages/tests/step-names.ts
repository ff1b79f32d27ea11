/** The endpoint names an `http` test's script gives its steps (`- name: ...`), offered as suggestions for a threshold's endpoint. */

export function stepNames(tool: string, script: string): string[] {
  if (tool !== 'http') return [];
  const names: string[] = [];
  for (const line of script.split('\n')) {
    const match = /^\s*-\s*name:\s*(.+?)\s*$/.exec(line);
    if (!match) continue;
    let name = match[1]!.replace(/\s+#.*$/, '');
    if ((name.startsWith('"') && name.endsWith('"')) || (name.startsWith("'") && name.endsWith("'"))) name = name.slice(1, -1);
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}
