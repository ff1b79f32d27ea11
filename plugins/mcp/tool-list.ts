/**
 * Every tool the MCP server offers, in the spec's order, then ours (cancel_run, wait_for_run, validate_test), then what a
 * run means (its verdict, endpoints, errors, a comparison, a test's baseline), then schedules.
 */
import type { AnyTool } from './tool-registry.ts';
import { listConfigs, writeConfig } from './tools/configs.ts';
import { getMachine, listMachines } from './tools/machines.ts';
import { getOtelTimeseries, listDashboards, metricsCatalog, queryMetrics } from './tools/metrics.ts';
import { cancelRun, runTest, waitForRun } from './tools/run-control.ts';
import { compareRuns } from './tools/compare-runs.ts';
import { getRunEndpoints } from './tools/run-endpoints.ts';
import { getRunErrors } from './tools/run-errors.ts';
import { getRunLogs } from './tools/run-logs.ts';
import { getRunVerdict } from './tools/run-verdict.ts';
import { setBaseline } from './tools/set-baseline.ts';
import { getRun, listRuns, runsByMachine } from './tools/runs.ts';
import { listSchedules, writeSchedule } from './tools/schedules.ts';
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
  getRunVerdict,
  getRunEndpoints,
  getRunErrors,
  compareRuns,
  setBaseline,
  listSchedules,
  writeSchedule,
];

export const toolsByName: ReadonlyMap<string, AnyTool> = new Map(mcpTools.map((tool) => [tool.name, tool]));
