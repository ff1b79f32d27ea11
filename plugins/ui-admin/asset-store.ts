/** The built UI's files through the static-assets port: hashed assets cached in memory with their gzip, the index read fresh. */
import type { StaticAssets } from 'loadplane/plugin';
import { isCompressible } from './content-types.ts';

export interface CachedAsset {
  bytes: Uint8Array;
  /** Present when compressing saved something worth a header. */
  gzip: Uint8Array | null;
}

/** A name Bun's build gives (`index-kw8f3ywk.js`): no dot files, no directories, nothing to escape with. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Below this, gzip's framing eats the gain and the CPU is wasted. */
const MIN_GZIP_BYTES = 1024;

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export interface AssetStore {
  /** The UI's index.html, or null when the UI is not built. Read on every call: a rebuild shows without a restart. */
  index(): Promise<Uint8Array | null>;
  /** The build's route-preloads.json parsed (null when missing or unreadable), read fresh like the index. */
  routePreloads(): Promise<unknown>;
  /** A file under assets/, or null. Hashed names never change content, so each is read and compressed once. */
  asset(name: string): Promise<CachedAsset | null>;
}

export function createAssetStore(assets: StaticAssets | null): AssetStore {
  const cache = new Map<string, Promise<CachedAsset | null>>();
  const load = async (path: string): Promise<CachedAsset | null> => {
    const bytes = await assets!.read('ui', path);
    if (!bytes) return null;
    const compressed = isCompressible(path) && bytes.length >= MIN_GZIP_BYTES ? await gzip(bytes) : null;
    return { bytes, gzip: compressed && compressed.length < bytes.length * 0.9 ? compressed : null };
  };
  return {
    async index() {
      return assets ? assets.read('ui', 'index.html') : null;
    },
    async routePreloads() {
      const bytes = assets ? await assets.read('ui', 'route-preloads.json') : null;
      if (!bytes) return null;
      try {
        return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
      } catch {
        return null;
      }
    },
    async asset(name) {
      if (!assets || !ASSET_NAME.test(name)) return null;
      const path = `assets/${name}`;
      let entry = cache.get(path);
      if (!entry) {
        entry = load(path);
        cache.set(path, entry);
      }
      const found = await entry;
      // A miss is not remembered: the file may appear with the next build, and names asked for at random must not fill memory.
      if (!found) cache.delete(path);
      return found;
    },
  };
}

/** Whether the client takes gzip (RFC 9110 12.5.3: listed, and not with q=0). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    if (coding?.trim().toLowerCase() !== 'gzip') return false;
    const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/i.exec(param)?.[1]).find((value) => value !== undefined);
    return q === undefined || Number(q) > 0;
  });
}
