/** Short names for the API's schemas. Exports: Task, Test, Machine, LoadConfig, Identity, Workspace, ApiToken, CreatedApiToken, Stage. */
import type { components } from './schema';

type Schemas = components['schemas'];
export type Task = Schemas['Task'];
export type Test = Schemas['Test'];
export type Machine = Schemas['Machine'];
export type LoadConfig = Schemas['LoadConfig'];
export type Identity = Schemas['Identity'];
export type Workspace = Schemas['Workspace'];
export type ApiToken = Schemas['ApiToken'];
export type CreatedApiToken = Schemas['CreatedApiToken'];
export type Stage = NonNullable<LoadConfig['stages']>[number];
