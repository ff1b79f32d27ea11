/**
 * The access-controls page (/settings/access-controls): the permission matrix, a row per permission and a column per
 * role; owners tick and save it (owners hold everything). Non-owners see the API's refusal.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { ErrorNotice } from '../../../components/common/error-notice';
import { Loading } from '../../../components/common/loading';
import { PageHeader } from '../../../components/common/page-header';
import { useCurrentWorkspace } from '../use-current-workspace';
import { changedCells, matrixOf, permissionHelp, putBody, ROLES, toggle, type Matrix } from './matrix-model';
import '../settings.css';

const controlsKey = ['access-controls'] as const;

export default function AccessControlsPage() {
  const queryClient = useQueryClient();
  const workspace = useCurrentWorkspace();
  const controls = useQuery({ queryKey: controlsKey, queryFn: () => unwrap(api.GET('/api/v1/access-controls')) });
  const saved = useMemo(() => (controls.data ? matrixOf(controls.data) : null), [controls.data]);
  const [edited, setEdited] = useState<Matrix | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => setEdited(saved), [saved]);
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof putBody>) => unwrap(api.PUT('/api/v1/access-controls', { body })),
    onSuccess: (answer) => {
      queryClient.setQueryData(controlsKey, answer);
      setNotice('Saved. The new permissions apply at once, to every member and their API tokens.');
      void queryClient.invalidateQueries({ queryKey: ['workspace'] });
    },
  });

  const isOwner = workspace.data?.role === 'owner';
  const permissions = controls.data?.permissions ?? [];
  const changes = saved && edited ? changedCells(saved, edited, permissions) : [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!edited) return;
    setNotice(null);
    save.mutate(putBody(edited, permissions));
  };

  return (
    <>
      <PageHeader
        title="Access controls"
        description="What each role may do in this workspace. Owners hold every permission; everyone can read. API tokens act with their creator’s role."
      />
      {notice ? (
        <div className="notice notice-success" role="status">
          <p>{notice}</p>
        </div>
      ) : null}
      {controls.isPending ? (
        <Loading label="Loading access controls…" />
      ) : !controls.data || !edited ? (
        <ErrorNotice error={controls.error} title="The access controls cannot be shown" />
      ) : (
        <form onSubmit={submit} aria-label="Permissions per role">
          {!isOwner ? (
            <div className="notice notice-info">
              <p>Only owners change access controls.</p>
            </div>
          ) : null}
          <div className="table-wrap">
            <table className="matrix">
              <caption>Permissions (rows) per role (columns)</caption>
              <thead>
                <tr>
                  <th scope="col">Permission</th>
                  {ROLES.map((role) => (
                    <th scope="col" className="role" key={role}>
                      {role}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {permissions.map((permission) => (
                  <tr key={permission}>
                    <th scope="row">
                      <code>{permission}</code>
                      {permissionHelp[permission] ? <div className="muted">{permissionHelp[permission]}</div> : null}
                    </th>
                    {ROLES.map((role) => (
                      <td key={role}>
                        <input
                          type="checkbox"
                          aria-label={`${permission} for ${role}`}
                          checked={edited[role].has(permission)}
                          disabled={role === 'owner' || !isOwner || save.isPending}
                          onChange={() => {
                            setNotice(null);
                            setEdited(toggle(edited, role, permission));
                          }}
                        />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ErrorNotice error={save.error} title="The access controls were not saved" />
          {isOwner ? (
            <div className="actions matrix-actions">
              <button type="submit" className="button primary" disabled={changes.length === 0 || save.isPending}>
                {save.isPending ? 'Saving…' : 'Save access controls'}
              </button>
              <button type="button" className="button" disabled={changes.length === 0 || save.isPending} onClick={() => setEdited(saved)}>
                Undo changes
              </button>
              <span className="muted" aria-live="polite">
                {changes.length === 0 ? 'No unsaved changes.' : `Unsaved: ${changes.join('; ')}.`}
              </span>
            </div>
          ) : null}
        </form>
      )}
    </>
  );
}
