import { createTestApp, type TestApp } from '@svc/http-server';
import { afterAll, beforeAll } from 'vitest';
import { probeRoutes } from '../../support/probe-routes.js';

export const DASHBOARD = 'https://dash.example.test';
export const SIGNUP_SITE = 'https://www.example.test';

/**
 * The API the conventions are checked on, started once per file: a dashboard and a signup site as allowed
 * origins, closed signup, a 2 KiB body limit, and the probe routes (widgets to page, create and update).
 */
export function useConventionsApp() {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({
      env: {
        SVC_DASHBOARD_URL: `${DASHBOARD}/`,
        SVC_SIGNUP_ORIGINS: `${SIGNUP_SITE},${DASHBOARD}`,
        SVC_SIGNUP_MODE: 'closed',
        SVC_BODY_LIMIT_BYTES: '2048',
      },
      routes: [probeRoutes],
    });
  });
  afterAll(async () => app.close());
  return {
    get app(): TestApp {
      return app;
    },
  };
}

/** What every convention's checks read: the running API. */
export type ConventionsFixture = ReturnType<typeof useConventionsApp>;
