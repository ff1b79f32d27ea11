/** AuthGate: renders its children only for a signed-in user; otherwise signs in (coming back to the page asked for) or says why not. */
import { useEffect, type ReactNode } from 'react';
import { useAuth } from './auth-context';
import { useAuthStatus } from './auth-provider';
import { currentPath } from './return-to';

function Screen({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Loadplane`;
  }, [title]);
  return (
    <main className="auth-screen" id="main">
      <div className="auth-card">
        <p className="brand">Loadplane</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

export function AuthGate({ children }: { children: ReactNode }) {
  const { user, signIn } = useAuth();
  const { phase, error, signedOut, retry } = useAuthStatus();
  const mustSignIn = phase === 'ready' && !user && !signedOut;

  useEffect(() => {
    if (mustSignIn) void signIn(currentPath());
  }, [mustSignIn, signIn]);

  if (phase === 'loading') {
    return (
      <Screen title="Signing in">
        <p role="status">Checking your session…</p>
      </Screen>
    );
  }
  if (phase === 'error') {
    return (
      <Screen title="Sign-in failed">
        <p role="alert">{error}</p>
        <button type="button" className="button primary" onClick={retry}>
          Try again
        </button>
      </Screen>
    );
  }
  if (signedOut && !user) {
    return (
      <Screen title="You are signed out">
        <p>Sign in again to get back to your workspace.</p>
        <button type="button" className="button primary" onClick={() => void signIn('/')}>
          Sign in
        </button>
      </Screen>
    );
  }
  if (!user) {
    return (
      <Screen title="Signing in">
        <p role="status">Taking you to the sign-in page…</p>
      </Screen>
    );
  }
  return <>{children}</>;
}
