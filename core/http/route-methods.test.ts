/** Allow lists the methods of the most specific matching route: a static segment is its own resource, not a parameter. */
import { expect, test } from 'bun:test';
import { createRouteMethods } from './route-methods.ts';

const methodsOf = createRouteMethods(() => [
  { method: 'GET', path: '/api/v1/members' },
  { method: 'PATCH', path: '/api/v1/members/:userId' },
  { method: 'DELETE', path: '/api/v1/members/:userId' },
  { method: 'GET', path: '/api/v1/members/invitations' },
  { method: 'DELETE', path: '/api/v1/members/invitations/:id' },
  { method: 'WS', path: '/api/v1/tasks/:id/ws' },
  { method: 'ALL', path: '/api/v1/*' },
]);

test('a static path wins over a parameter; a parameter path keeps its own methods', () => {
  expect(methodsOf('/api/v1/members/invitations').allow).toEqual(['GET', 'HEAD']);
  expect(methodsOf('/api/v1/members/someone').allow).toEqual(['PATCH', 'DELETE']);
  expect(methodsOf('/api/v1/members/invitations/abc/').allow).toEqual(['DELETE']);
  expect(methodsOf('/api/v1/nothing-here').allow).toEqual([]);
});

test('a WebSocket path is named and answers GET', () => {
  expect(methodsOf('/api/v1/tasks/x/ws')).toEqual({ allow: ['GET', 'HEAD'], websocket: '/api/v1/tasks/:id/ws' });
});
