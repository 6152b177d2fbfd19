import { createTestApp, SettingsError } from '@svc/http-server';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';

/**
 * Who may read GET /metrics (issue 27, finding 10): anyone in development; in production only the holder of
 * SVC_METRICS_TOKEN, and a production server with metrics on does not start without one. The start through
 * `svc serve` is in test/e2e/production-start.e2e.test.ts.
 */
describe('GET /metrics access by environment', () => {
  let api: ApiHarness | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('stays open in development without a token', async () => {
    api = await startApi('memory');
    const answer = await send(`${api.url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('# TYPE svc_http_requests_total counter');
  });

  it('refuses to start a production server with metrics on and no token, naming the setting', async () => {
    const start = createTestApp({ env: { SVC_ENV: 'production' } });
    await expect(start).rejects.toBeInstanceOf(SettingsError);
    await expect(start).rejects.toMatchObject({
      issues: [
        {
          setting: 'SVC_METRICS_TOKEN',
          message: expect.stringContaining('required in production while metrics are enabled'),
        },
      ],
    });
  });

  it('answers 401 in production without the token, 200 with it', async () => {
    api = await startApi('memory', { SVC_ENV: 'production', SVC_METRICS_TOKEN: 'production-metrics-0123' });
    const without = await send(`${api.url}/metrics`);
    expect(without.status).toBe(401);
    expect(problemOf(without).code).toBe('unauthenticated');
    const scraped = await send(`${api.url}/metrics`, {
      headers: { authorization: 'Bearer production-metrics-0123' },
    });
    expect(scraped.status).toBe(200);
  });

  it('with SVC_METRICS_ENABLED=false a production server starts without a token and /metrics is 404', async () => {
    const app = await createTestApp({ env: { SVC_ENV: 'production', SVC_METRICS_ENABLED: 'false' } });
    try {
      const answer = await send(`${app.url}/metrics`);
      expect(answer.status).toBe(404);
      expect(problemOf(answer).code).toBe('not_found');
      expect((await send(`${app.url}/livez`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
