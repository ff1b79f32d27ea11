/** The test balancer: forwards bytes both ways to its target; a switch cuts open connections and sends new ones to the new target. */
import { afterAll, expect, test } from 'bun:test';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

const servers: Server[] = [];
let proxy: TcpProxy | null = null;

afterAll(async () => {
  await proxy?.close();
  for (const server of servers) server.close();
});

/** A backend that answers every chunk with `<name>:<chunk>`. */
async function backend(name: string): Promise<number> {
  const server = createServer((socket) => socket.on('data', (chunk) => socket.write(`${name}:${chunk}`)));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

function client(port: number): Promise<{ socket: Socket; ask(text: string): Promise<string>; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    const ask = (text: string) =>
      new Promise<string>((answer) => {
        socket.once('data', (chunk) => answer(String(chunk)));
        socket.write(text);
      });
    socket.once('error', reject);
    socket.once('connect', () => resolve({ socket, ask, closed }));
  });
}

test('forwards to A; after switchTo(B) the open connection is cut and new ones reach B', async () => {
  const [a, b] = [await backend('A'), await backend('B')];
  proxy = await startTcpProxy(a);
  expect(proxy.url).toBe(`http://127.0.0.1:${proxy.port}`);
  const first = await client(proxy.port);
  expect(await first.ask('hello')).toBe('A:hello');
  proxy.switchTo(b);
  await first.closed;
  const second = await client(proxy.port);
  expect(await second.ask('again')).toBe('B:again');
  second.socket.destroy();
}, 10_000);
