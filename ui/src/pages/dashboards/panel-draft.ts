/**
 * The panel editor's model: a panel ({title, query, chart}) as form fields and back.
 * Exports: PanelDraft, PanelErrors, Panel, draftOfPanel(panel), panelOfDraft(draft), validatePanel(draft), MAX_PANELS.
 */
import { CHART_TYPES, LABELS, METRICS, queryParams, type ChartType, type LabelName } from './metric-query';

export interface Panel {
  title: string;
  query: string | Record<string, unknown>;
  chart: ChartType;
}

export const MAX_PANELS = 50;
export const MAX_TITLE = 200;

export interface PanelDraft {
  title: string;
  chart: ChartType;
  metric: string;
  /** `run`, `machine`, `test`, `run,machine`..., or '' for one series. */
  by: string;
  /** Label filters: `value`, `!value`, `~regex`, `!~regex`, or '' for none. */
  run: string;
  machine: string;
  test: string;
  step: string;
  /** Parameters the fields do not cover, kept as they were (a query string). */
  extra: string;
}

export type PanelErrors = Partial<Record<keyof PanelDraft | 'form', string>>;

export function draftOfPanel(panel: Panel | null): PanelDraft {
  if (!panel) {
    return { title: '', chart: 'line', metric: 'request_rate', by: 'run', run: '', machine: '', test: '', step: '', extra: '' };
  }
  const params = queryParams(panel.query);
  const take = (name: string): string => {
    const values = params.getAll(name);
    // One value fills the field; a repeated filter stays in `extra`, untouched.
    if (values.length !== 1) return '';
    params.delete(name);
    return values[0]!;
  };
  const metric = take('metric');
  const hasBy = params.has('by');
  const by = take('by');
  const draft: PanelDraft = {
    title: panel.title,
    chart: CHART_TYPES.includes(panel.chart) ? panel.chart : 'line',
    metric,
    by: hasBy ? by : 'run',
    run: take('run'),
    machine: take('machine'),
    test: take('test'),
    step: take('step'),
    extra: '',
  };
  params.delete('start');
  params.delete('end');
  draft.extra = params.toString();
  return draft;
}

/** The panel to save: its query as a query string (`metric=latency_p95&step=10s&by=machine`). */
export function panelOfDraft(draft: PanelDraft): Panel {
  const params = new URLSearchParams();
  params.set('metric', draft.metric.trim());
  // The API splits by run when `by` is absent; an empty `by` is one series.
  if (draft.by !== 'run') params.set('by', draft.by);
  for (const label of LABELS) {
    const value = draft[label].trim();
    if (value) params.set(label, value);
  }
  if (draft.step.trim()) params.set('step', draft.step.trim());
  for (const [name, value] of new URLSearchParams(draft.extra.trim().replace(/^[?&]/, ''))) {
    if (name === 'start' || name === 'end') continue;
    params.append(name, value);
  }
  return { title: draft.title.trim(), chart: draft.chart, query: params.toString() };
}

const STEP = /^(?:\d+(?:\.\d+)?|(?:\d+(?:ms|s|m|h|d|w|y))+)$/;

export function validatePanel(draft: PanelDraft): PanelErrors {
  const errors: PanelErrors = {};
  const title = draft.title.trim();
  if (!title) errors.title = 'Give the panel a title.';
  else if (title.length > MAX_TITLE) errors.title = `A title is at most ${MAX_TITLE} characters.`;
  if (!METRICS.some((m) => m.name === draft.metric)) errors.metric = 'Pick a metric.';
  if (draft.step.trim() && !STEP.test(draft.step.trim())) errors.step = 'A step is a duration such as 10s, 1m or 1h30m, or a number of seconds.';
  for (const label of LABELS) {
    const value = draft[label as LabelName].trim();
    if (/^!?~/.test(value)) {
      try {
        new RegExp(value.replace(/^!?~/, ''));
      } catch {
        errors[label] = 'This regular expression does not parse.';
      }
    }
  }
  if (new TextEncoder().encode(panelOfDraft(draft).query as string).length > 8192) errors.form = 'The query is longer than 8 KiB.';
  return errors;
}
