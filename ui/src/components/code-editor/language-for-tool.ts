/** Which CodeMirror language a test's tool uses: k6 JavaScript, locust Python, artillery and http YAML, jmeter XML, gatling Java. */
import type { Extension } from '@codemirror/state';
import { java } from '@codemirror/lang-java';
import { javascript } from '@codemirror/lang-javascript';
import { python } from '@codemirror/lang-python';
import { xml } from '@codemirror/lang-xml';
import { yaml } from '@codemirror/lang-yaml';

export type LanguageName = 'javascript' | 'python' | 'yaml' | 'xml' | 'java' | 'plain';

/** The language of a tool's scripts; `custom` follows the script's shebang (python, node), else plain text. */
export function languageNameFor(tool: string, script = ''): LanguageName {
  switch (tool) {
    case 'k6':
      return 'javascript';
    case 'locust':
      return 'python';
    case 'artillery':
    case 'http':
      return 'yaml';
    case 'jmeter':
      return 'xml';
    case 'gatling':
      return 'java';
    case 'custom': {
      const shebang = script.startsWith('#!') ? script.slice(0, script.indexOf('\n') === -1 ? undefined : script.indexOf('\n')) : '';
      if (/python/.test(shebang)) return 'python';
      if (/\b(node|bun|deno)\b/.test(shebang)) return 'javascript';
      return 'plain';
    }
    default:
      return 'plain';
  }
}

export function languageExtension(name: LanguageName): Extension {
  switch (name) {
    case 'javascript':
      return javascript();
    case 'python':
      return python();
    case 'yaml':
      return yaml();
    case 'xml':
      return xml();
    case 'java':
      return java();
    case 'plain':
      return [];
  }
}
