/** Tests of the schedule form's values: defaults, an existing schedule's values, and the body sent. */
import { describe, expect, test } from 'bun:test';
import type { Schedule } from '../../api/types';
import { draftOf, listedMachines, scheduleBody } from './schedule-draft';

const schedule = {
  id: 's1',
  test_id: 't1',
  cron: '0 3 * * mon-fri',
  timezone: 'Europe/Berlin',
  config_id: 'c1',
  machine_ids: ['m1', 'm2'],
  enabled: false,
} as Schedule;

describe('schedule draft', () => {
  test('a new schedule: every day at 02:00 in the browser zone, enabled, nothing else chosen', () => {
    expect(draftOf(undefined, 'Asia/Tokyo')).toEqual({ cron: '0 2 * * *', timezone: 'Asia/Tokyo', configId: '', machineIds: [], enabled: true });
  });

  test("an existing schedule's values, the browser zone unused", () => {
    expect(draftOf(schedule, 'Asia/Tokyo')).toEqual({ cron: '0 3 * * mon-fri', timezone: 'Europe/Berlin', configId: 'c1', machineIds: ['m1', 'm2'], enabled: false });
    expect(draftOf({ ...schedule, config_id: null }, 'UTC').configId).toBe('');
  });

  test('the body: cron trimmed, no configuration as null, only listed machines', () => {
    expect(scheduleBody({ cron: ' 5 4 * * * ', timezone: 'UTC', configId: '', machineIds: ['m1', 'gone'], enabled: true }, ['m1', 'm3'])).toEqual({
      cron: '5 4 * * *',
      timezone: 'UTC',
      config_id: null,
      machine_ids: ['m1'],
      enabled: true,
    });
  });

  test("the machines listed: those offering the tool, then the schedule's own that do not", () => {
    const m = (id: string) => ({ id });
    expect(listedMachines([m('a')], [m('a'), m('b'), m('c')], ['b']).map((x) => x.id)).toEqual(['a', 'b']);
    expect(listedMachines([m('a')], [m('a'), m('b')], ['a']).map((x) => x.id)).toEqual(['a']);
  });
});
