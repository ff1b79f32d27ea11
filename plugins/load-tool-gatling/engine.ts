/**
 * How an agent finds Gatling: GATLING_BIN, then `gatling` on PATH, then the launcher `scripts/install-engines gatling`
 * caches (Gatling 3.13.5's Maven Central jars plus Loadplane's launcher), with the version the installer wrote beside it.
 */
import type { EngineSpec } from 'loadplane/plugin';

export const gatlingVersion = '3.13.5';

export const gatlingEngine: EngineSpec = {
  name: 'Gatling',
  program: 'gatling',
  envVar: 'GATLING_BIN',
  cached: [`gatling/${gatlingVersion}/bin/gatling`],
  // Written by the installer: reading it spares every agent start a JVM start (`gatling --version` prints the same).
  version: { file: `gatling/${gatlingVersion}/bin/gatling.version` },
  install: 'gatling',
  hint: 'a JDK 11+ and Maven are needed to install it',
};
