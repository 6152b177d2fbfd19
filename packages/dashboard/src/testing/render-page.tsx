import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type RenderResult, render } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { type ReactNode, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { createQueryClient } from '../app/query-client.js';
import { ROUTES } from '../app/routes.js';
import { NotifyProvider } from '../feedback/notify.js';
import { SignedInOnly } from '../session/signed-in-only.js';

/** A page or component rendered for a test, with a person to drive it. */
export interface RenderedPage extends RenderResult {
  /** Types, clicks and tabs as a person does (Testing Library's user-event). */
  user: UserEvent;
  /** The page's query cache, fresh for each render. */
  queryClient: QueryClient;
  /** The address bar: the current path and query, after any navigation the page did. */
  location(): string;
}

/**
 * Opens `path` in jsdom's address bar. The dashboard routes with wouter's browser location, which jsdom's
 * History implements, so pages read their `:id` and query and navigate exactly as in a browser.
 */
function openPath(path: string): void {
  window.history.replaceState(null, '', path);
}

function rendered(ui: ReactNode, queryClient: QueryClient): RenderedPage {
  const user = userEvent.setup();
  const result = render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
  return {
    ...result,
    user,
    queryClient,
    location: () => window.location.pathname + window.location.search,
  };
}

/**
 * Renders the page the route table maps `path` to (src/app/routes.ts), behind the guard its access asks for,
 * as the app does without its header: following a link or a redirect renders the next page. Pages load lazily,
 * so wait for them with `findBy…` (their heading, for example).
 */
export function renderRoute(path: string): RenderedPage {
  openPath(path);
  // Within the app's notices (app.tsx), shown in the viewport: tests find them by their live region's role,
  // as a screen reader hears them.
  return rendered(
    <NotifyProvider>
      <Switch>
        {ROUTES.map((route) => {
          const Page = route.page;
          const page = (
            <Suspense fallback={<p aria-busy="true">Loading…</p>}>
              <Page />
            </Suspense>
          );
          return (
            <Route key={route.path} path={route.path}>
              {route.access === 'public' ? (
                page
              ) : (
                <SignedInOnly adminOnly={route.access === 'operator'}>{page}</SignedInOnly>
              )}
            </Route>
          );
        })}
        <Route>
          <h1>Page not found</h1>
        </Route>
      </Switch>
    </NotifyProvider>,
    createQueryClient(),
  );
}

/**
 * Renders one component with the query cache, at `path` (for components reading the address or a route's
 * parameters, render them inside a `<Route path="…">`; for notices, inside a `<NotifyProvider>`).
 */
export function renderComponent(ui: ReactNode, { path = '/' }: { path?: string } = {}): RenderedPage {
  openPath(path);
  return rendered(ui, createQueryClient());
}
