/** The test page (/tests/:id, /tests/new): the test's form (name, tool, script, thresholds), then for a saved test "Start a run", its recent runs, the trend of its last runs and its schedules. */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearch } from 'wouter';
import { ApiError } from '../../api/api-error';
import { testQuery } from '../../api/queries';
import { ErrorNotice } from '../../components/common/error-notice';
import { Loading } from '../../components/common/loading';
import { PageHeader } from '../../components/common/page-header';
import { RecentRuns } from './recent-runs';
import { StartRunPanel } from './start-run-panel';
import { TestSchedules } from './test-schedules';
import { TestTrend } from './test-trend';
import { TestForm } from './test-form';

export default function TestPage() {
  const { id = '' } = useParams<{ id: string }>();
  const search = useSearch();
  const isNew = id === 'new';
  const loaded = useQuery({ ...testQuery(id), enabled: !isNew });

  if (isNew) {
    const tool = new URLSearchParams(search).get('tool') ?? 'http';
    return (
      <>
        <PageHeader title="New test" description="Name it, pick the tool that runs it and write its script. Runs start from the saved test." />
        <TestForm key="new" test={null} initialTool={tool} />
      </>
    );
  }

  if (loaded.isPending) {
    return (
      <>
        <PageHeader title="Test" />
        <Loading label="Loading the test…" />
      </>
    );
  }
  const test = loaded.data;
  if (!test) {
    const missing = loaded.error instanceof ApiError && (loaded.error.status === 404 || loaded.error.status === 400);
    return (
      <>
        <PageHeader title={missing ? 'Test not found' : 'Test'} />
        {missing ? <p>There is no test with this id in this workspace; it may have been deleted.</p> : <ErrorNotice error={loaded.error} />}
        <p>
          <Link href="/tests">Back to the tests</Link>
        </p>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={test.name}
        description={
          <>
            A <code>{test.tool}</code> test. <Link href="/tests">All tests</Link>
          </>
        }
      />
      <TestForm key={test.id} test={test} initialTool={test.tool} />
      <StartRunPanel test={test} />
      <RecentRuns testId={test.id} />
      <TestTrend testId={test.id} baselineId={test.baseline_task_id} />
      <TestSchedules test={test} />
    </>
  );
}
