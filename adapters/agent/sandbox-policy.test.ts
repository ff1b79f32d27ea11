import { describe, expect, test } from 'bun:test';
import type { Logger } from '../../core/kernel/logger.ts';
import { unsandboxed, type ToolSandbox } from '../process/sandbox/tool-sandbox.ts';
import { toolsUnderSandbox } from './sandbox-policy.ts';

function recordingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    debug: (message, fields) => lines.push({ level: 'debug', message, fields }),
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
    child: () => logger,
  };
  return { logger, lines };
}

const tools = new Map<string, { runsAuthorCode?: boolean }>([
  ['custom', {}],
  ['k6', { runsAuthorCode: true }],
]);
const isolated = { ...unsandboxed, kind: 'bubblewrap', summary: 'bubblewrap: tools run as uid 65534' } as ToolSandbox;

describe('toolsUnderSandbox', () => {
  test('no isolation possible: no tool at all, and one error line says why and how to opt out', () => {
    const { logger, lines } = recordingLogger();
    const offered = toolsUnderSandbox(tools, { sandbox: null, refusal: 'bubblewrap (bwrap) is not installed; set AGENT_SANDBOX=off ...' }, logger);
    expect(offered.size).toBe(0);
    expect(lines).toEqual([
      {
        level: 'error',
        message: 'tools refused: runs cannot be isolated on this machine, so this agent offers no tool',
        fields: { refused: ['custom', 'k6'], reason: 'bubblewrap (bwrap) is not installed; set AGENT_SANDBOX=off ...' },
      },
    ]);
  });

  test('isolated: every available tool, and the start log says what the sandbox hides', () => {
    const { logger, lines } = recordingLogger();
    expect([...toolsUnderSandbox(tools, { sandbox: isolated, refusal: null }, logger).keys()]).toEqual(['custom', 'k6']);
    expect(lines).toEqual([{ level: 'info', message: 'tools run in a sandbox', fields: { tools: ['custom', 'k6'], sandbox: isolated.summary } }]);
  });

  test('no isolation possible: a tool that runs no author code (http) is still offered, and the error line names it', () => {
    const { logger, lines } = recordingLogger();
    const withHttp = new Map([...tools, ['http', { runsAuthorCode: false }]]);
    const offered = toolsUnderSandbox(withHttp, { sandbox: null, refusal: 'bubblewrap (bwrap) is not installed' }, logger);
    expect([...offered.keys()]).toEqual(['http']);
    expect(lines).toEqual([
      {
        level: 'error',
        message: "tools refused: runs cannot be isolated on this machine, so this agent offers only http (no code of the test's author runs)",
        fields: { refused: ['custom', 'k6'], reason: 'bubblewrap (bwrap) is not installed' },
      },
    ]);
    // With a sandbox it runs inside it like every other tool.
    expect([...toolsUnderSandbox(withHttp, { sandbox: isolated, refusal: null }, recordingLogger().logger).keys()]).toEqual(['custom', 'k6', 'http']);
  });

  test('AGENT_SANDBOX=off: the tools run, with a warning', () => {
    const { logger, lines } = recordingLogger();
    expect(toolsUnderSandbox(tools, { sandbox: unsandboxed, refusal: null }, logger).size).toBe(2);
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['warn', 'AGENT_SANDBOX=off: tools run without isolation and can read everything this agent can'],
    ]);
  });
});
