/** The load configuration form: the API's rules checked before sending, and the API's message put at its field. */
import { describe, expect, test } from 'bun:test';
import { bodyOf, draftOf, fieldOfMessage, newStage, validate } from './config-form-model';
import { parseDuration } from './duration';

describe('config form model', () => {
  test('durations as Go writes them', () => {
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('30')).toBeNull();
    expect(parseDuration('')).toBeNull();
  });
  test('constant load: vus 1..100000 and a duration up to 24h', () => {
    const draft = { ...draftOf(null), name: 'x', vus: '0', duration: '25h' };
    expect(Object.keys(validate(draft)).sort()).toEqual(['duration', 'vus']);
    expect(validate({ ...draft, vus: '10', duration: '30s' })).toEqual({});
    expect(bodyOf({ ...draft, vus: '10', duration: ' 30s ' })).toEqual({ name: 'x', vus: 10, duration: '30s' });
  });
  test('stages: each field checked, then the whole', () => {
    const base = { ...draftOf(null), name: 's', mode: 'stages' as const };
    const bad = validate({ ...base, stages: [newStage('10', '5'), newStage('10s', '-1')] });
    expect(Object.keys(bad).sort()).toEqual(['stages[0].duration', 'stages[1].target']);
    expect(validate({ ...base, stages: [newStage('10s', '0')] }).stages).toMatch(/above 0/);
    expect(validate({ ...base, stages: [newStage('10s', '5'), newStage('5s', '0')] })).toEqual({});
    expect(bodyOf({ ...base, stages: [newStage('10s', '5')] })).toEqual({ name: 's', stages: [{ duration: '10s', target: 5 }] });
  });
  test("the API's message goes to the field it names", () => {
    expect(fieldOfMessage('stages[1].duration "30" has no unit: write "30s", "30m" or "30ms"')).toBe('stages[1].duration');
    expect(fieldOfMessage('stages[2] must be an object with duration and target')).toBe('stages');
    expect(fieldOfMessage('vus must be an integer from 1 to 100000')).toBe('vus');
    expect(fieldOfMessage('give either vus with duration, or stages, not both')).toBe('form');
    expect(fieldOfMessage('name must not be blank')).toBe('name');
  });
  test('an existing configuration fills the form', () => {
    const draft = draftOf({ id: 'c', name: 'spike', vus: null, duration: null, stages: [{ duration: '10s', target: 50 }], created_at: '', updated_at: '' });
    expect(draft.mode).toBe('stages');
    expect(draft.stages.map((s) => [s.duration, s.target])).toEqual([['10s', '50']]);
  });
});
