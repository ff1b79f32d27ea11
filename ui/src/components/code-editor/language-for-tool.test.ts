/** Tests of the tool → editor language mapping. */
import { expect, test } from 'bun:test';
import { languageNameFor } from './language-for-tool';

test('each tool gets its language', () => {
  expect(languageNameFor('k6')).toBe('javascript');
  expect(languageNameFor('locust')).toBe('python');
  expect(languageNameFor('artillery')).toBe('yaml');
  expect(languageNameFor('http')).toBe('yaml');
  expect(languageNameFor('jmeter')).toBe('xml');
  expect(languageNameFor('gatling')).toBe('java');
  expect(languageNameFor('hey')).toBe('plain');
  expect(languageNameFor('custom', '#!/bin/sh\necho hi')).toBe('plain');
  expect(languageNameFor('custom', '#!/usr/bin/env python3\nprint(1)')).toBe('python');
  expect(languageNameFor('custom', '#!/usr/bin/env node\n')).toBe('javascript');
  expect(languageNameFor('custom', 'echo hi')).toBe('plain');
});
