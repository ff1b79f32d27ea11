/**
 * The audit log page (/audit-log): who did what in the workspace, newest first, paged with the cursor; each entry's
 * time, actor, action, target and details; filtered by action (or a family such as "webhook.") and actor, kept in the
 * URL (?action=&actor=). The API pages but does not filter, so the filters apply to the entries loaded so far.
 */
import { useId, useMemo } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useSearchParams } from 'wouter';
import { api, unwrapPage } from '../../api/client';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatDateTime, formatRelativeTime } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { actionsOf, actorText, detailsText, hasAuditFilters, matchesAudit, readAuditFilters, targetText, type AuditFilters } from './audit-filters';

const PAGE_SIZE = 100;

export default function AuditLogPage() {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const filters = readAuditFilters(params);
  const log = useInfiniteQuery({
    queryKey: ['audit-log'],
    initialPageParam: '',
    queryFn: ({ pageParam }) => unwrapPage(api.GET('/api/v1/audit-log', { params: { query: { limit: PAGE_SIZE, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const all = useMemo(() => log.data?.pages.flatMap((page) => page.items) ?? [], [log.data]);
  const shown = all.filter((entry) => matchesAudit(entry, filters));
  const options = useMemo(() => actionsOf(all, filters.action), [all, filters.action]);
  const filtered = hasAuditFilters(filters);

  const setFilter = (name: keyof AuditFilters, value: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  let body;
  if (log.isPending) body = <Loading label="Loading the audit log…" />;
  else if (!log.data) body = <ErrorNotice error={log.error} title="The audit log cannot be shown" />;
  else if (all.length === 0)
    body = (
      <EmptyState title="Nothing recorded yet">
        <p>Changes to tokens, webhooks, members, access controls, tests, machines and runs appear here as people make them.</p>
      </EmptyState>
    );
  else
    body = (
      <>
        <form className="filters" role="search" aria-label="Filter the audit log" onSubmit={(event) => event.preventDefault()}>
          <div>
            <label htmlFor={`${id}-action`}>Action</label>
            <select id={`${id}-action`} value={filters.action} onChange={(event) => setFilter('action', event.target.value)}>
              <option value="">Any action</option>
              <optgroup label="All of a kind">
                {options.families.map((family) => (
                  <option key={family} value={family}>
                    {family}*
                  </option>
                ))}
              </optgroup>
              <optgroup label="One action">
                {options.actions.map((action) => (
                  <option key={action} value={action}>
                    {action}
                  </option>
                ))}
              </optgroup>
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-actor`}>Actor</label>
            <input
              id={`${id}-actor`}
              type="search"
              value={filters.actor}
              onChange={(event) => setFilter('actor', event.target.value)}
              placeholder="name or id"
              autoComplete="off"
            />
          </div>
          {filtered ? (
            <button type="button" className="button" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
              Clear filters
            </button>
          ) : null}
        </form>
        {shown.length > 0 ? (
          <div className="table-wrap">
            <table>
              <caption>
                {filtered ? `Entries matching the filters (${shown.length} of ${all.length} loaded)` : `Activity, newest first (${all.length} loaded)`}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((entry) => (
                  <tr key={entry.id}>
                    <td>
                      <time dateTime={entry.time} title={formatRelativeTime(entry.time)}>
                        {formatDateTime(entry.time)}
                      </time>
                    </td>
                    <td>{actorText(entry)}</td>
                    <th scope="row">
                      <code>{entry.action}</code>
                    </th>
                    <td className="wrap-anywhere">{targetText(entry)}</td>
                    <td className="wrap-anywhere">{detailsText(entry.details) || <span className="muted">–</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <EmptyState title="No entry matches these filters">
            <p>
              {log.hasNextPage
                ? 'None of the entries loaded so far matches. Load older entries, or clear the filters.'
                : 'Clear the filters to see every entry.'}
            </p>
          </EmptyState>
        )}
        <div className="pager">
          {log.hasNextPage ? (
            <button type="button" className="button" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
              {log.isFetchingNextPage ? 'Loading older entries…' : 'Load older entries'}
            </button>
          ) : (
            <span className="muted">The whole log is loaded.</span>
          )}
        </div>
        <ErrorNotice error={log.error} />
      </>
    );

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who did what in this workspace, newest first: tokens, webhooks, members, access controls, tests, machines and runs."
      />
      {body}
    </>
  );
}
