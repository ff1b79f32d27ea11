/**
 * `loadplane/plugin/testing`: what a plugin's own test suite needs (run with `bun test`): the contract suite every
 * load-tool plugin passes, the agent's real process runner and assignment runner, the engine locator as an agent runs
 * it, and a kernel to set a plugin up in. Uses Bun and node APIs; never imported by plugin code, only by its tests.
 */
export { describeLoadToolContract } from '../tests/contract/load-tool.ts';
export type { LoadToolContractFixtures } from '../tests/contract/load-tool.ts';
export { requireOrSkip } from '../tests/helpers/k6-binary.ts';
export { runAssignment } from '../core/agent/run-assignment.ts';
export type { AssignmentResult, LogLine, RunAssignmentOptions } from '../core/agent/run-assignment.ts';
export { createNodeProcessRunner } from '../adapters/process/node-process-runner.ts';
export { createEngineLocator, createPathLookup, enginesDir, findEngine, installCommand, locateEngineOnHost } from '../adapters/agent/engine-locator.ts';
export { createModuleRuntime } from '../adapters/agent/module-runtime.ts';
export { createKernel } from '../core/kernel/create-kernel.ts';
export type { Kernel, KernelOptions } from '../core/kernel/create-kernel.ts';
export { openDatabase } from '../adapters/db/open-database.ts';
// The service's own tables and its data-file store, for plugin tests that need the database the service gives them.
export { coreEntities } from '../core/domain/entities/index.ts';
export { coreMigrations } from '../core/domain/migrations/index.ts';
export { sharedDataFiles } from '../core/services/shared-data-files.ts';
// Seeded random sequences for a plugin's model tests: the same seed replays the same walk.
export { seededRandom, type SeededRandom } from '../tests/helpers/seeded-random.ts';
