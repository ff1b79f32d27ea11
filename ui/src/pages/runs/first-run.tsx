/** FirstRun: the empty state of a workspace without runs: how to run a first `http` test, with a button that creates it and opens it. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { api, unwrap } from '../../api/client';
import { EmptyState } from '../../components/common/empty-state';
import { ErrorNotice } from '../../components/common/error-notice';
import { FIRST_TEST_NAME, firstTestScript } from './first-test-script';

export function FirstRun() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/tests', {
          body: { name: FIRST_TEST_NAME, tool: 'http', script: firstTestScript(window.location.origin), status: 'active' },
        }),
      ),
    onSuccess: (test) => {
      void queryClient.invalidateQueries({ queryKey: ['tests'] });
      navigate(`/tests/${encodeURIComponent(test.id)}`);
    },
  });
  return (
    <EmptyState title="No runs yet: run your first test">
      <p>
        A run is one execution of a test on your machines. The quickest start is a test with the built-in <code>http</code>{' '}
        tool: plain HTTP steps in YAML, no engine to install. This one calls this service&apos;s own <code>/healthz</code>:
      </p>
      <pre>
        <code>{firstTestScript(window.location.origin)}</code>
      </pre>
      <ol>
        <li>Create the test with the button below; it opens in the editor.</li>
        <li>Press Run: it runs on a machine of this workspace (the service&apos;s local agent, out of the box).</li>
        <li>Follow its log and figures live, then come back here for the history.</li>
      </ol>
      <div className="actions">
        <button type="button" className="button primary" onClick={() => create.mutate()} disabled={create.isPending}>
          {create.isPending ? 'Creating the test…' : 'Create this http test'}
        </button>
        <Link href="/tests" className="button">
          Go to tests
        </Link>
        <Link href="/machines" className="button">
          Check machines
        </Link>
      </div>
      <ErrorNotice error={create.error} />
    </EmptyState>
  );
}
