/**
 * `@loadplane/plugin-kit/testing`: what a plugin's own tests need, bundled (run with `bun test`): the contract suite
 * every load-tool plugin passes, the agent's real assignment runner and process runner, the engine locator as an
 * agent runs it, and a kernel to set a plugin up in. Uses Bun and node APIs; imported by tests only, never by plugin code.
 */
export { describeLoadToolContract } from '../../../tests/contract/load-tool.ts';
export type { LoadToolContractFixtures } from '../../../tests/contract/load-tool.ts';
export { requireOrSkip } from '../../../tests/helpers/k6-binary.ts';
export { runAssignment } from '../../../core/agent/run-assignment.ts';
export type { AssignmentResult, LogLine, RunAssignmentOptions } from '../../../core/agent/run-assignment.ts';
export { createNodeProcessRunner } from '../../../adapters/process/node-process-runner.ts';
export { createEngineLocator, createPathLookup, enginesDir, findEngine, locateEngineOnHost } from '../../../adapters/agent/engine-locator.ts';
export { createModuleRuntime } from '../../../adapters/agent/module-runtime.ts';
export { createKernel } from './test-kernel.ts';
export type { TestKernel, TestKernelOptions } from './test-kernel.ts';
