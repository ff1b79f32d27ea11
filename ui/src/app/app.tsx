/** App: query client, authentication gate, workspace and the routed layout. */
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../api/query-client';
import { AuthProvider } from '../auth/auth-provider';
import { AuthGate } from '../auth/auth-gate';
import { WorkspaceProvider } from '../workspace/workspace-provider';
import { Layout } from './layout';
import { Routes } from './routes';
import { useFocusOnNavigate } from './use-focus-on-navigate';

function SignedInApp() {
  useFocusOnNavigate();
  return (
    <WorkspaceProvider>
      <Layout>
        <Routes />
      </Layout>
    </WorkspaceProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <AuthGate>
          <SignedInApp />
        </AuthGate>
      </AuthProvider>
    </QueryClientProvider>
  );
}
