/** Every tool the MCP server offers, in the spec's order, then ours (cancel_run, wait_for_run, validate_test). */
import type { AnyTool } from './tool-registry.ts';
import { listConfigs, writeConfig } from './tools/configs.ts';
import { getMachine, listMachines } from './tools/machines.ts';
import { getOtelTimeseries, listDashboards, metricsCatalog, queryMetrics } from './tools/metrics.ts';
import { cancelRun, runTest, waitForRun } from './tools/run-control.ts';
import { getRunLogs } from './tools/run-logs.ts';
import { getRun, listRuns, runsByMachine } from './tools/runs.ts';
import { getTest, listTests, validateTest, writeTest } from './tools/tests.ts';
import { auditLog, listEnvVars, listGitRepos, syncGitRepo } from './tools/workspace-data.ts';
import { limits, usage, whoami } from './tools/workspace.ts';

export const mcpTools: readonly AnyTool[] = [
  whoami,
  limits,
  usage,
  listMachines,
  getMachine,
  listTests,
  getTest,
  listConfigs,
  listRuns,
  getRun,
  getRunLogs,
  runsByMachine,
  metricsCatalog,
  queryMetrics,
  getOtelTimeseries,
  listDashboards,
  listGitRepos,
  listEnvVars,
  auditLog,
  writeTest,
  writeConfig,
  runTest,
  syncGitRepo,
  cancelRun,
  waitForRun,
  validateTest,
];

export const toolsByName: ReadonlyMap<string, AnyTool> = new Map(mcpTools.map((tool) => [tool.name, tool]));
