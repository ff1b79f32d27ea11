/** How an agent finds k6: K6_BIN, then PATH, then the build `scripts/install-engines k6` caches; `k6 version` names it. */
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
