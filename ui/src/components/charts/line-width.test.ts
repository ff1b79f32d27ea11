import { expect, test } from 'bun:test';
import { lineWidthFor } from './line-width';

test('lines are 2 px wide up to one point per 2 px of the plot, and 1 px past it', () => {
  expect(lineWidthFor(0, 600)).toBe(2);
  expect(lineWidthFor(300, 600)).toBe(2);
  expect(lineWidthFor(301, 600)).toBe(1);
  expect(lineWidthFor(3600, 1200)).toBe(1);
  // The same points on a wider plot are sparser again.
  expect(lineWidthFor(500, 1000)).toBe(2);
  expect(lineWidthFor(500, 800)).toBe(1);
});
