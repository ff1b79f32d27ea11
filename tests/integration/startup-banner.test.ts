/**
 * What `npm start` shows a person at a terminal (LOG_FORMAT=pretty, the default there): a line at once that it is
 * starting, readable log lines, then a banner with the address, where the first admin password is and which load tools
 * this machine can run; with JSON logs (a collector) there is no banner between the lines.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { waitFor } from '../helpers/process-probes.ts';

const started: ServiceProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const service of started) await service.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

test('pretty: starting, then the banner with the URL, the password file and the tools (http ready)', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-banner-'));
  dirs.push(dataDir);
  const service = await startServiceProcess({ env: { DATA_DIR: dataDir, LOG_FORMAT: 'pretty' }, embedded: true });
  started.push(service);
  await waitFor(() => service.output().includes('Loadplane is ready on'), 60_000, 'the banner');
  const output = service.output();
  expect(output).toMatch(/^\d\d:\d\d:\d\d INFO {2}starting {2}data_dir=/m);
  expect(output).toContain(`sign in as admin with the password in ${join(dataDir, 'initial-admin-password')}`);
  expect(output).toMatch(/^ {4}http +ready$/m);
  expect(output).toContain('bash scripts/install-engines <engine>');
  // Readable lines, not JSON objects.
  expect(output).not.toMatch(/^\{"time":/m);
});

test('json: the same start as JSON lines, with no banner among them', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-banner-json-'));
  dirs.push(dataDir);
  const service = await startServiceProcess({ env: { DATA_DIR: dataDir, LOG_FORMAT: 'json' }, embedded: true });
  started.push(service);
  await waitFor(() => service.output().includes('"message":"loadplane is listening"'), 60_000, 'the listening line');
  expect(service.output()).not.toContain('Loadplane is ready on');
  expect(service.output()).toContain('"message":"starting"');
});
