/**
 * How an agent finds Artillery: ARTILLERY_BIN, then PATH, then the npm prefix `scripts/install-engines artillery`
 * fills. The version comes from the installed package.json: `artillery --version` loads the whole CLI (seconds).
 */
import type { EngineSpec } from 'loadplane/plugin';

/** The version scripts/engines/artillery.sh installs (keep the two in step): the newest that runs on Node 20. */
export const artilleryVersion = '2.0.21';

export const artilleryEngine: EngineSpec = {
  name: 'Artillery',
  program: 'artillery',
  envVar: 'ARTILLERY_BIN',
  cached: [`artillery/${artilleryVersion}/node_modules/.bin/artillery`],
  version: { file: `artillery/${artilleryVersion}/node_modules/artillery/package.json`, pattern: '"version":\\s*"([^"]+)"' },
  install: 'artillery',
  hint: `npm install -g artillery@${artilleryVersion}`,
};
