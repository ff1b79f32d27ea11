/** Tests of reading a run's stored log for "Download log". */
import { describe, expect, test } from 'bun:test';
import { fetchStoredLog } from './download-log';

const log = (id: number, text: string) => `id: ${id}\ndata: ${JSON.stringify({ type: 'log', source: 'out', text, id })}\n\n`;
const answer = (body: string, status = 200) => new Response(body, { status, headers: { 'content-type': status === 200 ? 'text/event-stream' : 'application/json' } });

describe('fetchStoredLog', () => {
  test('a finished run: every stored line, as printed, up to done', async () => {
    const paths: string[] = [];
    const parts = await fetchStoredLog({
      taskId: 'abc',
      signal: new AbortController().signal,
      fetch: async (path) => {
        paths.push(path);
        return answer(`: connected\n\n${log(1, '\x1b[32mok\x1b[0m')}${log(2, 'second')}id: end\ndata: {"type":"done","task":{"status":"completed"}}\n\n`);
      },
    });
    expect(paths).toEqual(['/api/v1/tasks/abc/log-stream?after=0']);
    expect(parts.join('')).toBe('\x1b[32mok\x1b[0m\nsecond\n');
  });

  test('a running run: stops at the live point', async () => {
    const parts = await fetchStoredLog({
      taskId: 'abc',
      signal: new AbortController().signal,
      fetch: async () => answer(`${log(1, 'a')}: following\n\n${log(2, 'live')}`),
    });
    expect(parts).toEqual(['a\n']);
  });

  test('an error answer throws its message', async () => {
    const failing = fetchStoredLog({
      taskId: 'abc',
      signal: new AbortController().signal,
      fetch: async () => answer('{"error":"forbidden","message":"you may not read runs"}', 403),
    });
    await expect(failing).rejects.toThrow('you may not read runs');
  });
});
