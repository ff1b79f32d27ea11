/**
 * Short names for the API's schemas. Exports: Task, Test, Machine, LoadConfig, Identity, Workspace, MyWorkspace, ApiToken,
 * CreatedApiToken, Stage, Threshold, ThresholdResult, TaskEndpoint, TaskErrorGroup, TimeseriesPoint,
 * RunComparison, ComparedRun, FigureChanges, EndpointChange, TrendPoint, Schedule, ScheduleCreate, ScheduleChange.
 */
import type { components } from './schema';

type Schemas = components['schemas'];
export type Task = Schemas['Task'];
export type Test = Schemas['Test'];
export type Machine = Schemas['Machine'];
export type LoadConfig = Schemas['LoadConfig'];
export type Identity = Schemas['Identity'];
export type Workspace = Schemas['Workspace'];
export type MyWorkspace = Schemas['MyWorkspace'];
export type ApiToken = Schemas['ApiToken'];
export type CreatedApiToken = Schemas['CreatedApiToken'];
export type Stage = NonNullable<LoadConfig['stages']>[number];
export type Threshold = Schemas['Threshold'];
export type ThresholdResult = Schemas['ThresholdResult'];
export type TaskEndpoint = Schemas['TaskEndpoint'];
export type TaskErrorGroup = Schemas['TaskErrorGroup'];
export type TimeseriesPoint = Schemas['TimeseriesPoint'];
export type RunComparison = Schemas['RunComparison'];
export type ComparedRun = Schemas['ComparedRun'];
export type FigureChanges = Schemas['FigureChanges'];
export type EndpointChange = Schemas['EndpointComparison'];
export type TrendPoint = Schemas['TrendPoint'];
export type Schedule = Schemas['Schedule'];
export type ScheduleCreate = Schemas['ScheduleCreate'];
export type ScheduleChange = Schemas['ScheduleChange'];
