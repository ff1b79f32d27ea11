/**
 * The engine-overhead benchmark's target, in its own process: answers every request on 127.0.0.1 with 200 `ok` at once and
 * counts them. Control endpoints (not counted): `GET /__reset` zeroes the count, `GET /__count` answers
 * `{requests, firstAt, lastAt}` (epoch ms of the first and last counted request). Prints its port on stdout.
 */
export {};
const now = () => performance.timeOrigin + performance.now();
let requests = 0;
let firstAt = 0;
let lastAt = 0;

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request) {
    const path = request.url.slice(request.url.indexOf('/', 8));
    if (path === '/__count') return Response.json({ requests, firstAt, lastAt });
    if (path === '/__reset') {
      requests = 0;
      firstAt = 0;
      lastAt = 0;
      return new Response('reset');
    }
    const at = now();
    if (requests === 0) firstAt = at;
    lastAt = at;
    requests++;
    return new Response('ok');
  },
});
console.log(server.port);
process.on('SIGTERM', () => {
  server.stop(true);
  process.exit(0);
});
