/**
 * `npm start` stopped (SIGTERM) while its local agent still checks its tools: an orderly stop, exit 0. The check runs
 * each engine's version command (Java ones take seconds on a busy machine) after /healthz already answers; a SIGTERM
 * in that time used to end the process by the signal's default, with no orderly stop of its database and jobs.
 */
import { afterAll, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../helpers/process-probes.ts';
import { startServiceProcess } from '../helpers/service-process.ts';

let dir = '';
afterAll(() => rm(dir, { recursive: true, force: true }));

test('a SIGTERM during the local agent tool check waits for the check, then stops in order (exit 0)', async () => {
  dir = await mkdtemp(join(tmpdir(), 'loadplane-stop-during-start-'));
  const asked = join(dir, 'version-asked');
  const release = join(dir, 'release');
  // A k6 whose version command holds until the test releases it: the local agent's start is still checking its tools.
  const k6 = join(dir, 'k6');
  await writeFile(k6, `#!/bin/sh\ntouch '${asked}'\nwhile [ ! -e '${release}' ]; do sleep 0.05; done\necho 'k6 v1.8.1 (go1.25.0, linux/amd64)'\n`, { mode: 0o755 });
  const service = await startServiceProcess({
    embedded: true,
    env: {
      DATA_DIR: join(dir, 'data'),
      K6_BIN: k6,
      BOOTSTRAP_ADMIN_USERNAME: 'admin',
      BOOTSTRAP_ADMIN_PASSWORD: 'stop-during-start-password',
      AUTH_CLIENT_SECRET: 'stop-during-start-secret',
    },
  });
  try {
    await waitFor(() => existsSync(asked), 60_000, 'the local agent asking k6 its version');
    const stopped = service.stop();
    await writeFile(release, '');
    const code = await stopped;
    if (code !== 0) console.error(service.output());
    expect(code).toBe(0);
    expect(service.output()).toContain('stopping');
  } finally {
    await service.kill();
  }
}, 120_000);
