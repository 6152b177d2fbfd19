import type { SvcClient } from '@svc/sdk';
import { type InProcessApi, startInProcessApi } from '@svc/testing/in-process-api';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { Route } from 'wouter';
import { NotifyProvider } from '../feedback/notify.js';
import { signedIn } from './api-session.js';
import { type RenderedPage, renderComponent } from './render-page.js';

/** A signed-in account with one profile of its own, made afresh for each test of the file. */
export interface ProfileFixture {
  readonly server: InProcessApi;
  readonly client: SvcClient;
  readonly profileId: string;
}

/**
 * Registers the hooks of a file whose tests drive one profile's page: one in-process API for the file, and
 * before each test a new signed-in account with a profile named `name`.
 */
export function signedInProfile(name = 'Home'): ProfileFixture {
  let server: InProcessApi | undefined;
  let client: SvcClient | undefined;
  let profileId = '';
  beforeAll(async () => {
    server = await startInProcessApi();
  });
  afterAll(() => server?.close());
  beforeEach(async () => {
    if (server === undefined) throw new Error('the in-process API did not start');
    ({ client } = await signedIn(server));
    profileId = (await client.profiles.create({ name })).id;
  });
  const started = <T,>(value: T | undefined): T => {
    if (value === undefined) throw new Error('read the fixture inside a test');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get client() {
      return started(client);
    },
    get profileId() {
      return profileId;
    },
  };
}

/**
 * Renders a profile page at `/profiles/{id}{suffix}` under its route, with the notices the app shows in the
 * viewport, as the app mounts it.
 */
export function renderProfilePage(page: ReactNode, profileId: string, suffix = ''): RenderedPage {
  return renderComponent(
    <NotifyProvider>
      <Route path={`/profiles/:id${suffix}`}>{page}</Route>
    </NotifyProvider>,
    { path: `/profiles/${profileId}${suffix}` },
  );
}
