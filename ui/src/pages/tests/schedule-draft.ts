/** What the schedule form edits: its initial values (a new schedule's defaults, or an existing schedule's), and the body it sends for POST or PATCH. */
import type { Schedule } from '../../api/types';

export interface ScheduleDraft {
  cron: string;
  timezone: string;
  /** '' for none (the script decides). */
  configId: string;
  machineIds: string[];
  enabled: boolean;
}

/** A new schedule: every day at 02:00 in the browser's zone, enabled; or the values of the schedule being edited. */
export function draftOf(schedule: Schedule | undefined, browserZone: string): ScheduleDraft {
  if (!schedule) return { cron: '0 2 * * *', timezone: browserZone, configId: '', machineIds: [], enabled: true };
  return {
    cron: schedule.cron,
    timezone: schedule.timezone,
    configId: schedule.config_id ?? '',
    machineIds: [...schedule.machine_ids],
    enabled: schedule.enabled,
  };
}

/**
 * The fields of a POST or PATCH /schedules body. Only machines still listed in the form (`listed`) are sent: a box
 * checked earlier for a machine that no longer offers the test's tool is not shown, so it is not sent either.
 */
export function scheduleBody(draft: ScheduleDraft, listed: readonly string[]) {
  return {
    cron: draft.cron.trim(),
    timezone: draft.timezone,
    config_id: draft.configId || null,
    machine_ids: draft.machineIds.filter((id) => listed.includes(id)),
    enabled: draft.enabled,
  };
}

/**
 * The machines to list: those offering the test's tool, then (when editing) the schedule's own that do not (any
 * more), so that what the schedule runs on stays visible and can be unchecked instead of vanishing on save.
 */
export function listedMachines<M extends { id: string }>(offering: readonly M[], all: readonly M[], initial: readonly string[]): M[] {
  const extra = all.filter((m) => initial.includes(m.id) && !offering.some((o) => o.id === m.id));
  return [...offering, ...extra];
}
