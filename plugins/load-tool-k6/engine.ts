/**
 * How an agent finds k6: K6_BIN, then PATH, then the build `scripts/install-engines k6` caches; `k6 version` names it,
 * and lists the extensions built in, of which ours is the `loadplane` output.
 */
import type { EngineSpec } from 'loadplane/plugin';

export const k6Engine: EngineSpec = {
  name: 'k6',
  program: 'k6',
  envVar: 'K6_BIN',
  cached: ['bin/k6'],
  // `k6 v1.8.1 (commit/..., go1.26.8, linux/amd64)`
  version: { args: ['version'], pattern: '^k6 (v\\S+)' },
  install: 'k6',
};

/** What k6 prints for our output extension in `k6 version`: `  github.com/loadplane/xk6-output-loadplane (devel), loadplane [output]`. */
export const k6OutputExtensionName = 'loadplane';

/**
 * Asks one k6 binary (a path, or a name on PATH) whether it has the loadplane output: its "version" is then the
 * extension's name, else null.
 */
export function k6OutputProbe(binary: string): EngineSpec {
  return {
    name: 'k6',
    program: binary,
    cached: [],
    version: { args: ['version'], pattern: `^\\s+\\S+ \\S+, (${k6OutputExtensionName}) \\[output\\]$` },
  };
}
