/** StatusBadge({ status }): a run's or machine's status as a labelled, colour-coded badge (text, never colour alone). */

const tone: Record<string, string> = {
  pending: 'neutral',
  running: 'info',
  busy: 'info',
  completed: 'success',
  passed: 'success',
  online: 'success',
  active: 'success',
  failed: 'danger',
  offline: 'muted',
  cancelled: 'muted',
  archived: 'muted',
  draft: 'neutral',
};

export function StatusBadge({ status }: { status: string }) {
  const kind = tone[status] ?? 'neutral';
  return (
    <span className={`badge badge-${kind}`}>
      {status === 'running' || status === 'busy' ? <span className="badge-pulse" aria-hidden="true" /> : null}
      {status}
    </span>
  );
}
