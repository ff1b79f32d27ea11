/** JSON of a task event, computed once per event however many subscribers receive it. */
import type { TaskEvent } from './task-events.ts';

const cache = new WeakMap<TaskEvent, string>();

export function jsonOf(event: TaskEvent): string {
  let json = cache.get(event);
  if (json === undefined) {
    json = JSON.stringify(event);
    cache.set(event, json);
  }
  return json;
}
