import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { NotifyProvider } from '../feedback/notify.js';
import { SignedInOnly } from '../session/signed-in-only.js';
import { useAccount } from '../session/use-account.js';
import { AppShell } from './app-shell.js';
import { ErrorBoundary } from './error-boundary.js';
import { HOME } from './home.js';
import { createQueryClient } from './query-client.js';
import { type AppRoute, ROUTES } from './routes.js';

const queryClient = createQueryClient();

/** One route's page, titled, behind the guard its access asks for. */
function RoutePage({ route }: { route: AppRoute }) {
  useEffect(() => {
    document.title = `${route.title} · svc`;
  }, [route.title]);
  const Page = route.page;
  const page = (
    <Suspense fallback={<p aria-busy="true">Loading…</p>}>
      <Page />
    </Suspense>
  );
  if (route.access === 'public') return page;
  return <SignedInOnly adminOnly={route.access === 'operator'}>{page}</SignedInOnly>;
}

/** `/`: the signed-in home, or the sign-in page. */
function Start() {
  const account = useAccount();
  if (account.isPending) return <p aria-busy="true">Loading…</p>;
  return <Redirect to={account.data === null || account.isError ? '/login' : HOME} replace />;
}

function NotFound() {
  useEffect(() => {
    document.title = 'Page not found · svc';
  }, []);
  return (
    <>
      <h1>Page not found</h1>
      <p>
        If you typed the address, check it is correct. If you followed a link, it may be out of date: go to{' '}
        <a href="/">the start page</a>.
      </p>
    </>
  );
}

/** The dashboard: the query cache, the shell, and the route table. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <NotifyProvider>
        <AppShell>
          <ErrorBoundary>
            <Switch>
              <Route path="/">
                <Start />
              </Route>
              {ROUTES.map((route) => (
                <Route key={route.path} path={route.path}>
                  <RoutePage route={route} />
                </Route>
              ))}
              <Route>
                <NotFound />
              </Route>
            </Switch>
          </ErrorBoundary>
        </AppShell>
      </NotifyProvider>
    </QueryClientProvider>
  );
}
