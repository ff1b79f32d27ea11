/** BaselineControl({ task, test }): "Set as baseline" for a finished run of its test, or a "Baseline" badge with "Remove baseline" when it is one. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Task, Test } from '../../api/types';
import { ErrorNotice } from '../../components/common/error-notice';
import { canBeBaseline } from './baseline-eligible';

export function BaselineControl({ task, test }: { task: Task; test: Test | undefined }) {
  const queryClient = useQueryClient();
  const refresh = (changed?: Test) => {
    if (changed) queryClient.setQueryData(['tests', changed.id], changed);
    void queryClient.invalidateQueries({ queryKey: ['tests'] });
    void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] === 'tasks' && query.queryKey[2] === 'compare' });
  };
  const set = useMutation({
    mutationFn: (testId: string) =>
      unwrap(api.PUT('/api/v1/tests/{id}/baseline', { params: { path: { id: testId } }, body: { task_id: task.id } })),
    onSuccess: (changed) => refresh(changed),
  });
  const remove = useMutation({
    mutationFn: (testId: string) => unwrap(api.DELETE('/api/v1/tests/{id}/baseline', { params: { path: { id: testId } } })),
    onSuccess: () => {
      if (test) queryClient.setQueryData(['tests', test.id], { ...test, baseline_task_id: null });
      refresh();
    },
  });
  if (!test) return null;
  const isBaseline = test.baseline_task_id === task.id;
  if (!isBaseline && !canBeBaseline(task)) return null;
  const busy = set.isPending || remove.isPending;
  return (
    <div className="baseline-control">
      {isBaseline ? (
        <>
          <span className="badge badge-info">Baseline</span>
          <button type="button" className="button" onClick={() => remove.mutate(test.id)} disabled={busy}>
            Remove baseline
          </button>
        </>
      ) : (
        <button type="button" className="button" onClick={() => set.mutate(test.id)} disabled={busy}>
          {set.isPending ? 'Setting…' : 'Set as baseline'}
        </button>
      )}
      <ErrorNotice error={set.error ?? remove.error} />
    </div>
  );
}
