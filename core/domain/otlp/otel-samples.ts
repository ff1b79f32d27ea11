/**
 * Turns a decoded OTLP export into the samples Loadplane stores: one (series, time, value) per stored value, each
 * with the run it names (`loadplane.task_id`) or none yet, and the points it must refuse with the reason why.
 */
import type { Labels, OtlpExport, OtlpKind } from './otlp-model.ts';

/** The attribute that names the run a point belongs to (a task's UUID or public id), on the resource or the point. */
export const taskAttribute = 'loadplane.task_id';
/** Resource attributes kept as labels (the rest describe the SDK and the process, and would multiply the series). */
export const resourceLabelKeys = ['service.name', 'service.namespace', 'service.instance.id', 'host.name'] as const;

export const maxNameLength = 255;
export const maxUnitLength = 63;
export const maxLabels = 32;
/** Canonical JSON of a series' labels, in bytes. */
export const maxLabelsBytes = 1024;

export interface Sample {
  name: string;
  unit: string;
  kind: OtlpKind;
  labels: Labels;
  /** Canonical JSON of the labels (sorted keys): the series identity with the name. */
  labelsKey: string;
  timeUs: number;
  value: number;
}

/** The samples of one OTLP data point: they are accepted or refused together. */
export interface PointSamples {
  /** The task named by `loadplane.task_id`, or null: attribute by time. */
  taskRef: string | null;
  timeUs: number;
  samples: Sample[];
}

export interface Flattened {
  points: PointSamples[];
  /** Reason -> how many data points it refused. */
  refused: Map<string, number>;
}

export const refuse = (refused: Map<string, number>, reason: string, count = 1) => refused.set(reason, (refused.get(reason) ?? 0) + count);

const encoder = new TextEncoder();

export function flattenExport(decoded: OtlpExport, nowUs: number): Flattened {
  const points: PointSamples[] = [];
  const refused = new Map<string, number>();
  for (const resource of decoded.resources) {
    const resourceRef = resource.attributes[taskAttribute] ?? null;
    const resourceLabels: Labels = {};
    for (const key of resourceLabelKeys) if (resource.attributes[key] !== undefined) resourceLabels[key] = resource.attributes[key]!;
    for (const metric of resource.metrics) {
      const name = metric.name.trim();
      if (!name || name.length > maxNameLength) {
        refuse(refused, `a metric name must be 1 to ${maxNameLength} characters`, metric.points.length);
        continue;
      }
      if (metric.unit.length > maxUnitLength) {
        refuse(refused, `a unit must be at most ${maxUnitLength} characters (${name})`, metric.points.length);
        continue;
      }
      for (const point of metric.points) {
        const { [taskAttribute]: pointRef, ...attributes } = point.attributes;
        const labels: Labels = { ...resourceLabels, ...attributes };
        const keys = Object.keys(labels).sort();
        if (keys.length > maxLabels) {
          refuse(refused, `a data point may carry at most ${maxLabels} attributes (${name})`);
          continue;
        }
        const labelsKey = JSON.stringify(keys.map((key) => [key, labels[key]]));
        // UTF-8 takes at most 3 bytes per UTF-16 unit: most keys are short enough to skip the count.
        if (labelsKey.length * 3 > maxLabelsBytes && encoder.encode(labelsKey).byteLength > maxLabelsBytes) {
          refuse(refused, `a data point's attributes may take at most ${maxLabelsBytes} bytes (${name})`);
          continue;
        }
        if ((name + labelsKey).includes('\u0000')) {
          refuse(refused, `names and attributes cannot hold U+0000 (${name})`);
          continue;
        }
        const timeUs = point.timeUs > 0 ? point.timeUs : nowUs;
        const samples: Sample[] = [];
        for (const [suffix, value] of point.samples) {
          // NaN and infinities have no JSON form in the read API; a point made only of them is refused.
          if (Number.isFinite(value)) samples.push({ name: name + suffix, unit: metric.unit, kind: metric.kind, labels, labelsKey, timeUs, value });
        }
        if (samples.length === 0) {
          refuse(refused, `values must be finite numbers (${name})`);
          continue;
        }
        points.push({ taskRef: pointRef ?? resourceRef, timeUs, samples });
      }
    }
  }
  return { points, refused };
}

/** A run's window: it counts as active from its start until `graceUs` after its end (the exporter's last interval). */
export interface RunWindow {
  id: string;
  startUs: number;
  endUs: number | null;
}

export type Attribution = { taskId: string } | { refused: string };

/** The one run active at `timeUs`, or why there is none to pick. */
export function attributeByTime(windows: readonly RunWindow[], timeUs: number, graceUs: number): Attribution {
  let found: string | null = null;
  for (const window of windows) {
    if (window.startUs > timeUs || (window.endUs !== null && window.endUs + graceUs < timeUs)) continue;
    if (found !== null) return { refused: `several runs of this workspace were active at the point's time: name one with the attribute ${taskAttribute}` };
    found = window.id;
  }
  return found === null ? { refused: `no run of this workspace was active at the point's time (set ${taskAttribute} to attach it to a run)` } : { taskId: found };
}
