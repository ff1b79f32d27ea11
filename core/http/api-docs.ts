/** Interactive API docs: the OpenAPI 3.1 document built from the routes (openapi-document.ts), and Swagger UI at /swagger-ui/ with its assets served locally. */
import { Elysia } from 'elysia';
import type { StaticAssets } from '../ports/static-assets.ts';
import { buildOpenApiDocument, type DocumentedRoute, workspaceHeader } from './openapi-document.ts';
import type { RoutePolicies } from './route-policy.ts';

export const openApiPath = '/swagger-ui/openapi.json';

const contentTypes: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  png: 'image/png',
  map: 'application/json',
};

// Our own page, not @elysiajs/openapi's: that one loads Swagger UI from a CDN (blank offline), writes a relative spec
// URL that breaks under the trailing slash, and its generated document does not validate (204 bodies, `$id`s).
const swaggerPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Loadplane API</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/swagger-ui/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/swagger-ui/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger-ui/assets/swagger-ui-bundle.js"></script>
  <script src="/swagger-ui/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: '${openApiPath}',
      dom_id: '#swagger-ui',
      deepLinking: true,
      // Not persisted: the bearer token would stay in localStorage, readable by any script of this origin, after the tab closes.
      persistAuthorization: false,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
    });
  </script>
</body>
</html>`;

const errorRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const upgrade = (operationId: string, tag: string, summary: string, description: string, parameters: object[] = []) => ({
  get: {
    operationId,
    tags: [tag],
    summary,
    description,
    parameters: [...parameters, workspaceHeader],
    security: [{ bearerAuth: [] }],
    responses: {
      101: { description: 'Switching Protocols: the WebSocket is open' },
      401: errorRef('Unauthorized'),
      403: errorRef('Forbidden'),
      404: errorRef('NotFound'),
      413: errorRef('PayloadTooLarge'),
      426: errorRef('UpgradeRequired'),
    },
  },
});

// OpenAPI has no WebSocket operation: these are documented as the GET upgrades they are.
const webSocketDocs = {
  '/api/v1/tasks/{id}/ws': upgrade(
    'getTasksByIdWs',
    'Tasks',
    'Follow a task over WebSocket',
    'One JSON task event per text message ({type: log|done|error}); the server closes with 1000 after the terminal one and pings about every 30 s. A finished task answers a single done message. ?after=<id> resumes after that log line.',
    [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'task UUID or public id' }],
  ),
  '/api/v1/agent': upgrade(
    'getAgent',
    'Agents',
    'Agent connection',
    'Agents dial out here with an API token holding machines:write and runs:write; JSON messages as in core/agent/protocol.ts.',
  ),
};

export interface ApiDocsOptions {
  assets: StaticAssets | null;
  version: string;
  maxBodyBytes: number;
  /** The application's routes, read at the first request for the document (every route is registered by then). */
  routes: () => readonly DocumentedRoute[];
  /** Every route's access policy, core's and plugins': those routes are documented as taking a bearer token. */
  policies: RoutePolicies;
}

export function apiDocs(options: ApiDocsOptions) {
  let document: string | null = null;
  return new Elysia({ name: 'api-docs' })
    .get(
      openApiPath,
      () => {
        document ??= JSON.stringify(buildOpenApiDocument(options.routes(), options, webSocketDocs));
        return new Response(document, { headers: { 'content-type': 'application/json; charset=utf-8' } });
      },
      { detail: { hide: true } },
    )
    .get('/swagger-ui/', () => new Response(swaggerPage, { headers: { 'content-type': 'text/html; charset=utf-8' } }), {
      detail: { hide: true },
    })
    .get(
      '/swagger-ui/assets/:file',
      async ({ params, status }) => {
        const file = params.file;
        const type = contentTypes[file.split('.').pop() ?? ''];
        const bytes = type && /^[a-z0-9.-]+$/i.test(file) && options.assets ? await options.assets.read('swagger-ui', file) : null;
        if (!bytes || !type) return status(404, { error: 'not_found', message: `asset ${file} not found` });
        return new Response(bytes as unknown as BodyInit, { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' } });
      },
      { detail: { hide: true } },
    );
}
