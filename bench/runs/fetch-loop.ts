/**
 * The floor of the http tool's engine: `vus` async loops of Bun's fetch against one URL for `seconds`, each answer read
 * to its end, nothing recorded. bench/http-tool-vs-k6.ts runs it as the `fetch-loop` leg.
 * Run: ./node_modules/.bin/bun bench/runs/fetch-loop.ts <url> <vus> <seconds>
 */
export {};
const [url = '', vus = '20', seconds = '8'] = process.argv.slice(2);
let stopping = false;
setTimeout(() => (stopping = true), Number(seconds) * 1000);
async function user(): Promise<void> {
  while (!stopping) await (await fetch(url, { redirect: 'manual' })).arrayBuffer();
}
await Promise.all(Array.from({ length: Number(vus) }, user));
