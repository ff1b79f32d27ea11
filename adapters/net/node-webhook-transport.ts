/** WebhookTransport on node:http(s): connects to the checked address via `lookup`, so Host, SNI and the certificate check keep the URL's name. */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookTransport } from '../../core/ports/webhook-transport.ts';

export function createNodeWebhookTransport(): WebhookTransport {
  return (post) =>
    new Promise((resolve) => {
      const family = post.address.includes(':') ? 6 : 4;
      // Whatever name the client asks for, it gets the address the guard checked (DNS rebinding cannot swap it).
      const lookup = ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (options?.all) callback(null, [{ address: post.address, family }]);
        else callback(null, post.address, family);
      }) as unknown as LookupFunction;
      const client = post.url.protocol === 'https:' ? https : http;
      let settled = false;
      const finish = (result: Awaited<ReturnType<WebhookTransport>>) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(result);
      };
      const request = client.request(
        post.url,
        {
          method: 'POST',
          headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
          lookup,
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          const done = () => {
            finish({ kind: 'answered', status: response.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8') });
            response.destroy();
          };
          response.on('data', (chunk: Buffer) => {
            if (kept < post.maxResponseBytes) {
              chunks.push(chunk.subarray(0, post.maxResponseBytes - kept));
              kept += Math.min(chunk.length, post.maxResponseBytes - kept);
            }
            // Enough read: the rest of a large or endless answer is not waited for.
            if (kept >= post.maxResponseBytes) done();
          });
          response.on('end', done);
          response.on('error', done);
        },
      );
      // One deadline for connect, send and the answer's first bytes and excerpt.
      const deadline = setTimeout(() => {
        finish({ kind: 'timeout' });
        request.destroy();
      }, post.timeoutMillis);
      request.on('error', (error) => finish({ kind: 'error', message: error.message }));
      request.end(post.body);
    });
}
