/**
 * Rules for dashboards: a name and panels, each a title, a metric query and a chart type. The query is stored as
 * given (a query string or a query object); only its shape and size are checked here, the metrics query endpoint
 * runs it.
 */
import { badRequest } from '../kernel/errors.ts';

export const chartTypes = ['line', 'area', 'bar', 'stat', 'table', 'heatmap'] as const;
export type ChartType = (typeof chartTypes)[number];

export const maxDashboardNameLength = 200;
export const maxPanelTitleLength = 200;
export const maxPanels = 50;
/** A query string, or a query object's JSON, at most this long. */
export const maxQueryBytes = 8 * 1024;
export const maxDashboardsPerWorkspace = 500;

export interface Panel {
  title: string;
  query: string | Record<string, unknown>;
  chart: ChartType;
}

const bytes = (text: string) => new TextEncoder().encode(text).byteLength;

export function checkDashboardName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('name must not be blank', { field: 'name' });
  if (trimmed.length > maxDashboardNameLength) throw badRequest(`name may be at most ${maxDashboardNameLength} characters`, { field: 'name' });
  return trimmed;
}

export function checkPanels(panels: readonly Panel[]): Panel[] {
  if (panels.length > maxPanels) throw badRequest(`a dashboard holds at most ${maxPanels} panels`, { field: 'panels' });
  return panels.map((panel, index) => {
    const field = `panels[${index}]`;
    const title = panel.title.trim();
    if (!title) throw badRequest(`${field}.title must not be blank`, { field: `${field}.title` });
    if (title.length > maxPanelTitleLength) throw badRequest(`${field}.title may be at most ${maxPanelTitleLength} characters`, { field: `${field}.title` });
    const query = panel.query;
    if (typeof query === 'string') {
      if (!query.trim()) throw badRequest(`${field}.query must not be blank`, { field: `${field}.query` });
      if (bytes(query) > maxQueryBytes) throw badRequest(`${field}.query may be at most ${maxQueryBytes} bytes`, { field: `${field}.query` });
    } else {
      if (query === null || typeof query !== 'object' || Array.isArray(query)) {
        throw badRequest(`${field}.query must be a query string or a query object`, { field: `${field}.query` });
      }
      if (Object.keys(query).length === 0) throw badRequest(`${field}.query must not be an empty object`, { field: `${field}.query` });
      if (bytes(JSON.stringify(query)) > maxQueryBytes) throw badRequest(`${field}.query may be at most ${maxQueryBytes} bytes as JSON`, { field: `${field}.query` });
    }
    if (!(chartTypes as readonly string[]).includes(panel.chart)) {
      throw badRequest(`${field}.chart must be one of ${chartTypes.join(', ')}`, { field: `${field}.chart` });
    }
    return { title, query, chart: panel.chart };
  });
}
