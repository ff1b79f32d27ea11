/** Media types of the files a Bun build emits, and which of them are worth compressing. */

const types: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  map: 'application/json',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
};

/** Text compresses; images and fonts already are. */
const compressible = new Set(['html', 'js', 'mjs', 'css', 'json', 'map', 'txt', 'svg', 'wasm', 'ttf', 'otf', 'ico']);

const extension = (path: string) => /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';

export const contentTypeOf = (path: string) => types[extension(path)] ?? 'application/octet-stream';
export const isCompressible = (path: string) => compressible.has(extension(path));
