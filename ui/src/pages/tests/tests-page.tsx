/** The tests page (/tests): the workspace's tests with tool, status and last change, filtered by tool and status; "New test". */
import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { testsQuery } from '../../api/queries';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { formatDateTime, formatRelativeTime } from '../../components/common/formatters';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { StatusBadge } from '../../components/common/status-badge';
import { BUILT_IN_TOOLS } from './tool-examples';

type StatusFilter = 'current' | 'archived' | 'all';

export default function TestsPage() {
  const id = useId();
  const tests = useQuery(testsQuery);
  const [tool, setTool] = useState('');
  const [status, setStatus] = useState<StatusFilter>('current');

  const all = tests.data ?? [];
  const tools = useMemo(() => [...new Set([...BUILT_IN_TOOLS, ...all.map((test) => test.tool)])].sort(), [all]);
  const shown = all.filter(
    (test) =>
      (!tool || test.tool === tool) &&
      (status === 'all' || (status === 'archived' ? test.status === 'archived' : test.status !== 'archived')),
  );
  const archivedCount = all.filter((test) => test.status === 'archived').length;

  return (
    <>
      <PageHeader
        title="Tests"
        description="Test definitions: a script and the tool that runs it. Open one to edit it or start a run."
        actions={
          <Link href="/tests/new" className="button primary">
            New test
          </Link>
        }
      />
      {tests.isPending ? (
        <Loading label="Loading the tests…" />
      ) : tests.error ? (
        <ErrorNotice error={tests.error} title="The tests could not be loaded" />
      ) : all.length === 0 ? (
        <EmptyState title="No tests yet">
          <p>
            A test is a script plus the tool that runs it. The quickest start is the built-in <code>http</code> tool: a few
            HTTP steps in YAML that every machine can run, with no engine to install. The new test form starts with one that
            calls this service&apos;s own <code>/healthz</code>; save it, pick a machine and start a run.
          </p>
          <div className="actions">
            <Link href="/tests/new?tool=http" className="button primary">
              Create an http test
            </Link>
            <Link href="/machines" className="button">
              Check machines
            </Link>
          </div>
        </EmptyState>
      ) : (
        <>
          <form className="filters" role="search" aria-label="Filter tests" onSubmit={(event) => event.preventDefault()}>
            <div className="field">
              <label htmlFor={`${id}-tool`}>Tool</label>
              <select id={`${id}-tool`} value={tool} onChange={(event) => setTool(event.target.value)}>
                <option value="">All tools</option>
                {tools.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-status`}>Status</label>
              <select id={`${id}-status`} value={status} onChange={(event) => setStatus(event.target.value as StatusFilter)}>
                <option value="current">Drafts and active</option>
                <option value="archived">Archived{archivedCount ? ` (${archivedCount})` : ''}</option>
                <option value="all">All</option>
              </select>
            </div>
          </form>
          {shown.length === 0 ? (
            <p className="muted" role="status">
              No test matches these filters.{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setTool('');
                  setStatus('all');
                }}
              >
                Show all tests
              </button>
            </p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">
                  Tests ({shown.length} of {all.length})
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Tool</th>
                    <th scope="col">Status</th>
                    <th scope="col">Updated</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((test) => (
                    <tr key={test.id}>
                      <th scope="row">
                        <Link href={`/tests/${encodeURIComponent(test.id)}`}>{test.name}</Link>
                      </th>
                      <td>
                        <code>{test.tool}</code>
                      </td>
                      <td>
                        <StatusBadge status={test.status} />
                      </td>
                      <td>
                        <time dateTime={test.updated_at} title={formatDateTime(test.updated_at)}>
                          {formatRelativeTime(test.updated_at)}
                        </time>
                      </td>
                      <td>
                        <time dateTime={test.created_at} title={formatDateTime(test.created_at)}>
                          {formatRelativeTime(test.created_at)}
                        </time>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {all.length >= 1000 ? <p className="muted">Showing the newest 1,000 tests.</p> : null}
        </>
      )}
    </>
  );
}
