/** The runs list's filters (test, status, machine): read from and written to the URL query, and sent to GET /tasks. */

export const runStatuses = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof runStatuses)[number];

export interface RunFilters {
  test: string;
  /** A run status, or '' for any. */
  status: RunStatus | '';
  machine: string;
}

const isRunStatus = (value: string): value is RunStatus => (runStatuses as readonly string[]).includes(value);

export function readFilters(params: URLSearchParams): RunFilters {
  const status = params.get('status') ?? '';
  return {
    test: params.get('test') ?? '',
    status: isRunStatus(status) ? status : '',
    machine: params.get('machine') ?? '',
  };
}

export function hasFilters(filters: RunFilters): boolean {
  return Boolean(filters.test || filters.status || filters.machine);
}

/** The query parameters of GET /tasks for the filters (the server filters; the cursor pages keep them). */
export function filterQuery(filters: RunFilters): { test_id?: string; status?: RunStatus; machine_id?: string } {
  return {
    ...(filters.test ? { test_id: filters.test } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.machine ? { machine_id: filters.machine } : {}),
  };
}
