import { parseSettings } from '@svc/composition';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createContainer } from '../src/composition/container.js';
import { ServerJob } from '../src/composition/server-job.js';
import { RouteTable } from '../src/routes/route-table.js';
import { type RunningServer, startServer } from '../src/server/start-server.js';

const env = {
  SVC_ENV: 'development',
  PORT: '0',
  SVC_SECRET: 'test-secret-that-is-long-enough-for-hkdf-0123456789',
  SVC_DATA_DIR: '/nonexistent-svc-test-data',
  SVC_DASHBOARD_URL: 'http://localhost:3000',
};
const logger = pino({ level: 'silent' });

function container(extra: Record<string, string> = {}) {
  return createContainer({ settings: parseSettings({ ...env, ...extra }), logger, storage: 'memory' });
}

/** Issue 37: route tables and background jobs are contributions of the container, started by the server. */
describe('the API server container', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('contributes every route table, each path and method once, the application serving them all', async () => {
    server = await startServer({ settings: parseSettings(env), logger, storage: 'memory' });
    const tables = await server.container.getAllAsync<RouteTable>(RouteTable);
    const contributed = tables.flat().map((route) => `${route.method} ${route.path}`);
    expect(new Set(contributed).size).toBe(contributed.length);
    expect(server.built.routes.map((route) => `${route.method} ${route.path}`)).toEqual(contributed);
    expect(contributed).toEqual(
      expect.arrayContaining([
        'get /v1/meta',
        'post /v1/profiles',
        'get /v1/profiles/{id}/nodes',
        'get /v1/admin/operator-blocks',
      ]),
    );
    const document = await server.built.openApi();
    expect(Object.keys(document.paths ?? {})).toContain('/v1/profiles/{id}/logs/stream');
  });

  it('answers an embedder’s routes after the contributed ones', async () => {
    const { defineRoute } = await import('../src/routes/route-definition.js');
    const { z } = await import('zod');
    server = await startServer({
      settings: parseSettings(env),
      logger,
      storage: 'memory',
      contributions: [
        () => [
          defineRoute({
            method: 'get',
            path: '/v1/embedded',
            operationId: 'embeddedPing',
            summary: 'An embedder’s route',
            tags: ['meta'],
            auth: 'none',
            responses: { 200: { schema: z.object({ ok: z.boolean() }), description: 'ok' } },
            handler: async () => ({ status: 200, body: { ok: true } }),
          }),
        ],
      ],
    });
    expect(server.built.routes.at(-1)?.path).toBe('/v1/embedded');
    const response = await fetch(`${server.url}/v1/embedded`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('contributes the schedulers as server jobs, the list refresh only when it has hours', async () => {
    const names = async (extra: Record<string, string>) =>
      (await container(extra).getAllAsync<ServerJob>(ServerJob)).map((job) => job.name).sort();
    const always = [
      'account erasure scheduler',
      'data export job',
      'node alert scheduler',
      // Every adapter family binds the node log hold, the memory one included.
      'node log hold scheduler',
      'operator expiry scheduler',
      'webhook delivery job',
    ];
    expect(await names({ SVC_LIST_REFRESH_HOURS: '0' })).toEqual(always);
    expect(await names({ SVC_LIST_REFRESH_HOURS: '24' })).toEqual(
      [...always, 'list refresh scheduler'].sort(),
    );
  });
});
