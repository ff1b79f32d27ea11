/**
 * Why the agent's socket could not open, in words an operator can act on: the WebSocket client reports only
 * "Failed to connect" or "Expected 101 status code: 401" in its error event, and the close that follows says nothing.
 */
const statusAdvice: Record<number, string> = {
  401: 'the service refused the token (HTTP 401): is it a valid, unrevoked API token (psk_...)?',
  403: 'the token may not run an agent (HTTP 403): it needs the machines:write and runs:write scopes and a role that manages machines',
  404: 'no agent endpoint at this address (HTTP 404): give the service base URL, e.g. http://loadplane.example.com:8080',
  429: 'too many unknown or revoked tokens from this address (HTTP 429): wait a minute, and check the token',
};

export function describeSocketFailure(message: string): string {
  const detail = message.replace(/^WebSocket connection to '[^']*' failed:\s*/, '').trim();
  const status = /Expected 101 status code:\s*(\d{3})/.exec(detail)?.[1];
  if (status) return statusAdvice[Number(status)] ?? `the service answered HTTP ${status} instead of opening the agent socket`;
  if (/failed to connect/i.test(detail)) return 'cannot reach the service (connection refused, unknown host or no route): check the server URL and that it is running';
  return detail || 'connection failed';
}
