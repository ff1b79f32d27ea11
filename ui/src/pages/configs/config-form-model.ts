/** The load configuration form's values, their checks (the API's rules) and the request body they make. */
import type { LoadConfig } from '../../api/types';
import { MAX_RUN_MS, parseDuration } from './duration';

export interface StageDraft {
  key: number;
  duration: string;
  target: string;
}

export interface ConfigDraft {
  name: string;
  mode: 'constant' | 'stages';
  vus: string;
  duration: string;
  stages: StageDraft[];
}

/** Errors by field: "name", "vus", "duration", "stages", "stages[0].duration", "stages[0].target", "form". */
export type FieldErrors = Record<string, string>;

let nextKey = 1;
export const newStage = (duration = '30s', target = '10'): StageDraft => ({ key: nextKey++, duration, target });

export function draftOf(config: LoadConfig | null): ConfigDraft {
  if (!config) return { name: '', mode: 'constant', vus: '10', duration: '30s', stages: [newStage('10s', '10'), newStage('30s', '10'), newStage('10s', '0')] };
  const stages = config.stages ?? [];
  return {
    name: config.name,
    mode: stages.length > 0 ? 'stages' : 'constant',
    vus: config.vus === null ? '10' : String(config.vus),
    duration: config.duration ?? '30s',
    stages: stages.length > 0 ? stages.map((s) => newStage(s.duration, String(s.target))) : [newStage('10s', '10'), newStage('30s', '10')],
  };
}

const isInteger = (text: string) => /^\d+$/.test(text.trim());

export function validate(draft: ConfigDraft): FieldErrors {
  const errors: FieldErrors = {};
  if (!draft.name.trim()) errors.name = 'Give the configuration a name.';
  if (draft.mode === 'constant') {
    const vus = Number(draft.vus);
    if (!isInteger(draft.vus) || vus < 1 || vus > 100_000) errors.vus = 'VUs must be a whole number from 1 to 100,000.';
    const ms = parseDuration(draft.duration);
    if (ms === null) errors.duration = 'Write a duration such as 30s, 5m or 1h30m.';
    else if (ms <= 0 || ms > MAX_RUN_MS) errors.duration = 'The duration must be more than 0s and at most 24h.';
    return errors;
  }
  if (draft.stages.length === 0 || draft.stages.length > 100) errors.stages = 'Give 1 to 100 stages.';
  let total = 0;
  let someTarget = false;
  draft.stages.forEach((stage, index) => {
    const ms = parseDuration(stage.duration);
    if (ms === null) errors[`stages[${index}].duration`] = 'Write a duration such as 30s or 5m.';
    else total += ms;
    if (!isInteger(stage.target) || Number(stage.target) > 100_000) errors[`stages[${index}].target`] = 'A whole number of VUs, 0 to 100,000.';
    else if (Number(stage.target) > 0) someTarget = true;
  });
  if (!errors.stages && Object.keys(errors).every((key) => !key.startsWith('stages['))) {
    if (total <= 0) errors.stages = 'The stages must last longer than 0s in total.';
    else if (total > MAX_RUN_MS) errors.stages = 'The stages must last at most 24h in total.';
    else if (!someTarget) errors.stages = 'Some stage needs a target above 0 VUs.';
  }
  return errors;
}

export type ConfigBody = { name: string; vus: number; duration: string } | { name: string; stages: { duration: string; target: number }[] };

export function bodyOf(draft: ConfigDraft): ConfigBody {
  const name = draft.name.trim();
  if (draft.mode === 'constant') return { name, vus: Number(draft.vus), duration: draft.duration.trim() };
  return { name, stages: draft.stages.map((s) => ({ duration: s.duration.trim(), target: Number(s.target) })) };
}

/** Puts the API's message at the field it names ("stages[1].duration ...", "vus must ...", "name ..."), else at the form. */
export function fieldOfMessage(message: string): string {
  const match = /^(stages\[\d+\]\.(?:duration|target)|stages\[\d+\]|stages|vus|duration|name)\b/.exec(message);
  if (!match?.[1]) return 'form';
  const field = match[1];
  return /^stages\[\d+\]$/.test(field) ? 'stages' : field;
}
