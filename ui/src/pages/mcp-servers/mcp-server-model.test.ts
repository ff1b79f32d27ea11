/** Remote MCP servers: the attach form's checks and body, and each server's connection from the tool listing. */
import { describe, expect, test } from 'bun:test';
import { bodyOfServer, connectionOf, connectionText, emptyServerDraft, newHeaderRow, validateServer } from './mcp-server-model';

describe('MCP server form', () => {
  test('names prefix tools: lower-case, no "__"', () => {
    const draft = { ...emptyServerDraft(), url: 'https://mcp.example.com/mcp' };
    expect(validateServer({ ...draft, name: 'jira' })).toEqual({});
    expect(validateServer({ ...draft, name: 'Jira' }).name).toMatch(/lower-case/);
    expect(validateServer({ ...draft, name: 'a__b' }).name).toMatch(/__/);
    expect(validateServer({ ...draft, name: 'a'.repeat(33) }).name).toMatch(/31/);
  });
  test('URLs and headers', () => {
    const draft = { ...emptyServerDraft(), name: 'wiki' };
    expect(validateServer({ ...draft, url: 'ftp://x' }).url).toMatch(/http/);
    expect(validateServer({ ...draft, url: 'https://u:p@x/mcp' }).url).toMatch(/header/);
    const errors = validateServer({
      ...draft,
      url: 'https://x/mcp',
      headers: [newHeaderRow('Authorization', 'Bearer t'), newHeaderRow('content-type', 'x'), newHeaderRow('authorization', ''), newHeaderRow('', '')],
    });
    expect(errors).toEqual({
      'headers[1].name': 'content-type is set by the MCP transport itself.',
      'headers[2].name': 'authorization is given twice.',
      'headers[2].value': 'Enter the value.',
    });
  });
  test('the body: header names lower-case, no headers when none', () => {
    expect(bodyOfServer({ name: ' jira ', url: 'https://x/mcp', headers: [newHeaderRow('', '')] })).toEqual({ name: 'jira', url: 'https://x/mcp' });
    expect(bodyOfServer({ name: 'jira', url: 'https://x/mcp', headers: [newHeaderRow('X-Api-Key', 'k')] }).headers).toEqual({ 'x-api-key': 'k' });
  });
  test('a connection as the tool listing tells it', () => {
    const list = { tools: [{ server_id: 'a', prefixed_name: 'a__x' }, { server_id: 'a', prefixed_name: 'a__y' }], skipped: [{ server_id: 'b', reason: 'too slow' }] };
    expect(connectionText(connectionOf(list, 'a'))).toBe('connected, 2 tools');
    expect(connectionText(connectionOf(list, 'b'))).toBe('failed: too slow');
    expect(connectionText(connectionOf(undefined, 'a'))).toBe('not tested yet');
  });
});
