/** How an agent finds Locust: LOCUST_BIN, then PATH, then the venv `scripts/install-engines locust` makes; `locust --version` names it. */
import type { EngineSpec } from 'loadplane/plugin';

/** The version scripts/engines/locust.sh installs (keep the two in step). */
export const locustVersion = '2.47.0';

export const locustEngine: EngineSpec = {
  name: 'Locust',
  program: 'locust',
  envVar: 'LOCUST_BIN',
  cached: [`locust/${locustVersion}/bin/locust`],
  // `locust 2.47.0 from /.../site-packages/locust (Python 3.11.2)`
  version: { args: ['--version'], pattern: '^locust (\\S+)' },
  install: 'locust',
  hint: `pip install locust==${locustVersion}`,
};
