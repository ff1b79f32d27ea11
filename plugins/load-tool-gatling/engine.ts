/**
 * How an agent finds Gatling: GATLING_BIN, then `gatling` on PATH, then the launcher `scripts/install-engines gatling`
 * caches (Gatling 3.13.5's Maven Central jars plus Loadplane's launcher); `gatling --version` names it.
 */
import type { EngineSpec } from 'loadplane/plugin';

export const gatlingVersion = '3.13.5';

export const gatlingEngine: EngineSpec = {
  name: 'Gatling',
  program: 'gatling',
  envVar: 'GATLING_BIN',
  cached: [`gatling/${gatlingVersion}/bin/gatling`],
  // Loadplane's launcher prints `gatling 3.13.5` (a JVM start, well under the locator's 10 s).
  version: { args: ['--version'], pattern: '^gatling (\\S+)' },
  install: 'gatling',
  hint: 'a JDK 11+ and Maven are needed to install it',
};
