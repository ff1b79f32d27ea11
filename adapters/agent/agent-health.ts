/**
 * The agent's health for a supervisor (compose's healthcheck, `loadplane agent --health`): the running agent writes
 * whether it is registered with the service into its state directory every few seconds, and the check reads that back.
 * A file rather than a port: the agent has no inbound port, by design.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive } from '../files/process-lock.ts';

const fileName = 'health.json';

interface HealthRecord {
  registered: boolean;
  machine_id: string | null;
  pid: number;
  at: string;
}

export interface HealthVerdict {
  healthy: boolean;
  message: string;
}

/**
 * Keeps `<dir>/health.json` current while the agent runs: looked at every second, written when the registration changes
 * and at least every `refreshMillis` (the check's proof of life); stop() removes it (no agent, no health).
 */
export function recordAgentHealth(dir: string, agent: { isConnected(): boolean; machineId(): string | null }, refreshMillis = 5_000) {
  const path = join(dir, fileName);
  let written = '';
  let writtenAt = 0;
  const tick = () => {
    const record: Omit<HealthRecord, 'at'> = { registered: agent.isConnected(), machine_id: agent.machineId(), pid: process.pid };
    const state = JSON.stringify(record);
    if (state === written && Date.now() - writtenAt < refreshMillis) return;
    try {
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify({ ...record, at: new Date().toISOString() })}\n`, { mode: 0o600 });
      renameSync(temporary, path);
      written = state;
      writtenAt = Date.now();
    } catch {
      // A full or read-only disk: the check then finds the record stale and says so; the agent itself carries on.
    }
  };
  tick();
  const timer = setInterval(tick, 1_000);
  timer.unref?.();
  return {
    stop() {
      clearInterval(timer);
      rmSync(path, { force: true });
    },
  };
}

/** Healthy: an agent runs on `dir` (its process is alive and wrote lately) and is registered with the service. */
export function checkAgentHealth(dir: string, now = Date.now(), maxAgeMillis = 30_000): HealthVerdict {
  const path = join(dir, fileName);
  let record: HealthRecord;
  try {
    record = JSON.parse(readFileSync(path, 'utf8')) as HealthRecord;
  } catch {
    return { healthy: false, message: `no agent runs on ${dir} (no readable ${fileName})` };
  }
  const age = now - Date.parse(record.at);
  if (!alive(record.pid)) return { healthy: false, message: `the agent that wrote ${path} (pid ${record.pid}) is gone` };
  if (!(age <= maxAgeMillis)) return { healthy: false, message: `the agent's health record is ${Math.round(age / 1000)} s old: it is stuck` };
  if (!record.registered) return { healthy: false, message: 'the agent is not registered with the service (connecting, or its token is refused: see its log)' };
  return { healthy: true, message: `registered as machine ${record.machine_id}` };
}
