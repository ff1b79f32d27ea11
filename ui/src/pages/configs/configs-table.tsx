/** ConfigsTable: the load configurations with their shape, a small preview, and edit / delete. */
import type { LoadConfig } from '../../api/types';
import { ConfirmButton } from '../../components/common/confirm-button';
import { formatRelativeTime, formatDateTime } from '../../components/common/formatters';
import { parseDuration, shortDuration } from './duration';
import { StagesPreview } from '../../components/charts/stages-preview';

function shape(config: LoadConfig): string {
  if (config.stages && config.stages.length > 0) {
    const total = config.stages.reduce((sum, stage) => sum + (parseDuration(stage.duration) ?? 0), 0);
    const peak = Math.max(...config.stages.map((stage) => stage.target));
    return `${config.stages.length} ${config.stages.length === 1 ? 'stage' : 'stages'}, up to ${peak} VUs, ${shortDuration(total)}`;
  }
  return `${config.vus ?? '?'} VUs for ${config.duration ?? '?'}`;
}

export function ConfigsTable(props: { configs: LoadConfig[]; onEdit(config: LoadConfig): void; onDelete(config: LoadConfig): void; deletingId: string | null }) {
  const { configs, onEdit, onDelete, deletingId } = props;
  return (
    <div className="table-wrap">
      <table>
        <caption>Load configurations, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Shape</th>
            <th scope="col">Preview</th>
            <th scope="col">Updated</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {configs.map((config) => (
            <tr key={config.id}>
              <th scope="row">{config.name}</th>
              <td>{shape(config)}</td>
              <td>
                {config.stages && config.stages.length > 0 ? (
                  <StagesPreview stages={config.stages} width={180} height={56} />
                ) : config.vus !== null && config.duration !== null ? (
                  <StagesPreview vus={config.vus} duration={config.duration} width={180} height={56} />
                ) : (
                  '–'
                )}
              </td>
              <td>
                <time dateTime={config.updated_at} title={formatDateTime(config.updated_at)}>
                  {formatRelativeTime(config.updated_at)}
                </time>
              </td>
              <td>
                <div className="actions">
                  <button type="button" className="button" onClick={() => onEdit(config)} aria-label={`Edit ${config.name}`}>
                    Edit
                  </button>
                  <ConfirmButton
                    label="Delete"
                    confirmLabel={`Delete ${config.name}`}
                    keepLabel="Keep"
                    question={`Delete ${config.name}?`}
                    busy={deletingId === config.id}
                    onConfirm={() => onDelete(config)}
                  />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
