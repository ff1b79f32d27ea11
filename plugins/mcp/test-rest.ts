/** Test support: a REST client whose service is a table of answers by `METHOD /path`, recording what was asked. */
import { silentLogger } from 'loadplane/plugin';
import { createRestClient, serviceAddress } from './rest-client.ts';
import type { ToolContext } from './tool-registry.ts';

export type Answer = (request: Request, url: URL) => Response | Promise<Response>;

export function fakeService(routes: Record<string, Answer>) {
  const asked: string[] = [];
  const rest = createRestClient({
    address: serviceAddress('http://lp.test'),
    token: 'psk_test',
    fetch: async (request) => {
      const url = new URL(request.url);
      const key = `${request.method} ${url.pathname.replace(/^\/api\/v1/, '')}`;
      asked.push(`${key}${url.search}`);
      const answer = routes[key];
      return answer ? answer(request, url) : Response.json({ error: 'not_found', message: `no route for ${key}` }, { status: 404 });
    },
  });
  const context: ToolContext = {
    rest,
    signal: new AbortController().signal,
    logger: silentLogger,
    validateScript: async () => ({ known: false, error: null, tools: [], checkedBy: 'service' }),
  };
  return { rest, context, asked };
}

/** The budget route granting every call. */
export const granted: Answer = () => Response.json({ period: '2026-11', used: 1, limit: null, remaining: null });
