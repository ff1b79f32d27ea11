import { expect, spyOn, test } from 'bun:test';
import { reportingSlowStep } from './slow-step-report.ts';

test('a step still pending is named once, as an error line, and its result still comes back', async () => {
  const printed: string[] = [];
  let heard: () => void = () => {};
  const reported = new Promise<void>((resolve) => (heard = resolve));
  const spy = spyOn(console, 'error').mockImplementation((line: string) => {
    printed.push(line);
    heard();
  });
  try {
    let stage = 'first stage';
    const result = await reportingSlowStep(() => `stop at its ${stage}`, async () => {
      stage = 'second stage';
      await reported; // the step ends only once the report is out: no clock decides the order
      return 42;
    }, 5);
    expect(result).toBe(42);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^error: stop at its second stage still pending after \d+ s$/);
  } finally {
    spy.mockRestore();
  }
});

test('a quick step prints nothing', async () => {
  const spy = spyOn(console, 'error').mockImplementation(() => {});
  try {
    expect(await reportingSlowStep('quick', async () => 'done', 60_000)).toBe('done');
    expect(spy).not.toHaveBeenCalled();
  } finally {
    spy.mockRestore();
  }
});
