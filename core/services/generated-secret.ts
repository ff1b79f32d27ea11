/** Secrets the service generates once into DATA_DIR when the operator sets none (client secret, encryption key). */
import type { DataFiles } from '../ports/data-files.ts';

export function randomSecret(bytes = 32): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export async function generatedSecret(files: DataFiles, name: string, configured?: string): Promise<string> {
  if (configured) return configured;
  const existing = (await files.read(name))?.trim();
  if (existing) return existing;
  await files.write(name, `${randomSecret()}\n`, { secret: true });
  // Read back: where the files are shared, another replica's value may have been there first.
  const kept = (await files.read(name))?.trim();
  if (!kept) throw new Error(`the generated secret ${name} could not be kept`);
  return kept;
}
