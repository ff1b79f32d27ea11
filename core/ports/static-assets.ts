/** The static-assets port: files the HTTP layer serves as they are (Swagger UI's bundle, the admin UI). */
import { defineCapability } from '../kernel/define-capability.ts';

export interface StaticAssets {
  /** The bytes of a file of a named asset root, or null when absent; never escapes the root. */
  read(root: 'swagger-ui' | 'ui', path: string): Promise<Uint8Array | null>;
}

export const staticAssetsPort = defineCapability<StaticAssets>({ id: 'port.staticAssets', cardinality: 'one' });
