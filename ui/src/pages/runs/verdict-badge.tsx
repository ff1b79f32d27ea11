/** VerdictBadge({ verdict }): a run's threshold verdict ("thresholds passed" / "thresholds failed") as a badge; nothing without one. */
import type { Task } from '../../api/types';

export function VerdictBadge({ verdict }: { verdict: Task['verdict'] | undefined }) {
  if (verdict !== 'passed' && verdict !== 'failed') return null;
  return (
    <span className={`badge verdict-badge ${verdict === 'passed' ? 'badge-success' : 'badge-danger'}`}>
      <span aria-hidden="true">{verdict === 'passed' ? '✓' : '✗'}</span>
      thresholds {verdict}
    </span>
  );
}
