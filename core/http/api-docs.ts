/** Interactive API docs: the OpenAPI 3 document from the route schemas, and Swagger UI at /swagger-ui/ with its assets served locally. */
import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import type { StaticAssets } from '../ports/static-assets.ts';

export const openApiPath = '/swagger-ui/openapi.json';

const contentTypes: Record<string, string> = {
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  png: 'image/png',
  map: 'application/json',
};

// The plugin's own page loads Swagger UI from a CDN (blank offline) and writes a relative spec URL
// that breaks under the trailing slash, so we render the page ourselves.
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
      persistAuthorization: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
    });
  </script>
</body>
</html>`;

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const upgrade = (summary: string, description: string, parameters: object[] = []) => ({
  get: {
    tags: [summary.startsWith('Agent') ? 'Agents' : 'Tasks'],
    summary,
    description,
    parameters,
    security: [{ bearerAuth: [] }],
    responses: {
      101: { description: 'Switching Protocols: the WebSocket is open' },
      401: { description: 'missing or invalid token (before the upgrade)', content: errorContent },
      403: { description: 'insufficient scope or permission (before the upgrade)', content: errorContent },
      404: { description: 'unknown or foreign task (before the upgrade)', content: errorContent },
    },
  },
});

// Elysia's OpenAPI generator cannot describe WebSocket routes, so they are documented here as the GET upgrades they are.
const webSocketDocs = {
  '/api/v1/tasks/{id}/ws': upgrade(
    'Follow a task over WebSocket',
    'One JSON task event per text message ({type: log|done|error}); the server closes with 1000 after the terminal one and pings about every 30 s. A finished task answers a single done message.',
    [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'task UUID or public id' }],
  ),
  '/api/v1/agent': upgrade(
    'Agent connection',
    'Agents dial out here with an API token holding machines:write and runs:write; JSON messages as in core/agent/protocol.ts.',
  ),
};

export function apiDocs(assets: StaticAssets | null, version: string) {
  return new Elysia({ name: 'api-docs' })
    .use(
      openapi({
        provider: null,
        specPath: openApiPath,
        path: '/swagger-ui/openapi',
        exclude: { paths: [/^\/swagger-ui/, /^\/auth\//] },
        documentation: {
          info: {
            title: 'Loadplane API',
            version,
            description:
              'Self-hosted, multi-tenant load-testing control plane. Authenticate with a bearer JWT from the identity provider (or a personal API token). Every error answers {error, message}.',
          },
          // The generator's PathsObject type is stricter than the OpenAPI text it emits.
          paths: webSocketDocs as never,
          components: {
            securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or psk_ API token' } },
          },
        },
      }),
    )
    .get('/swagger-ui/', () => new Response(swaggerPage, { headers: { 'content-type': 'text/html; charset=utf-8' } }), {
      detail: { hide: true },
    })
    .get(
      '/swagger-ui/assets/:file',
      async ({ params, status }) => {
        const file = params.file;
        const type = contentTypes[file.split('.').pop() ?? ''];
        const bytes = type && /^[a-z0-9.-]+$/i.test(file) && assets ? await assets.read('swagger-ui', file) : null;
        if (!bytes || !type) return status(404, { error: 'not_found', message: `asset ${file} not found` });
        return new Response(bytes as unknown as BodyInit, { headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' } });
      },
      { detail: { hide: true } },
    );
}
