import { sha256RunningDigest } from '@svc/adapters';
import {
  type Clock,
  Clock as ClockToken,
  type CursorSealer,
  DATA_EXPORT_LEASE_MS,
  DATA_EXPORT_MAX_ATTEMPTS,
  DataExportService,
  Random,
  UnitOfWork,
} from '@svc/domain';
import { CursorSealerToken, type DataExportScheduler, DataExportSchedulerToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';

/**
 * Exports whose build keeps failing (ROUTES.md status `failed`): retried after each lease, at most
 * DATA_EXPORT_MAX_ATTEMPTS builds, then failed, which frees the account to start another.
 */
describe('data exports that cannot be built (memory)', () => {
  let api: ApiHarness;
  let failing: DataExportService;
  beforeAll(async () => {
    api = await startApi('memory');
    await (await api.container.getAsync<DataExportScheduler>(DataExportSchedulerToken)).stop();
    failing = new DataExportService({
      uow: await api.container.getAsync<UnitOfWork>(UnitOfWork),
      clock: await api.container.getAsync<Clock>(ClockToken),
      random: await api.container.getAsync<Random>(Random),
      cursors: await api.container.getAsync<CursorSealer>(CursorSealerToken),
      collector: {
        collect: async () => {
          throw new Error('the archive cannot be collected');
        },
      },
      baseUrl: api.url,
      archiveDigest: sha256RunningDigest,
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  const session = (owner: TestAccount) => ({ cookie: `svc_session=${owner.cookie}` });
  const start = async (owner: TestAccount) => {
    const answer = await send(`${api.url}/v1/auth/me/exports`, { method: 'POST', headers: session(owner) });
    expect(answer.status).toBe(202);
    return (answer.json as { export: { id: string } }).export.id;
  };
  const statusOf = async (owner: TestAccount, id: string) =>
    (
      (await send(`${api.url}/v1/auth/me/exports/${id}`, { headers: session(owner) })).json as {
        export: { status: string };
      }
    ).export.status;

  it('retries a throwing build after its lease, then marks it failed: 409 export_not_ready, and a new one may start', async () => {
    const owner = await createAccount(api);
    const id = await start(owner);
    for (let attempt = 1; attempt <= DATA_EXPORT_MAX_ATTEMPTS; attempt += 1) {
      await expect(failing.buildNext()).rejects.toThrow('the archive cannot be collected');
      expect(await failing.buildNext()).toBe(false);
      expect(await statusOf(owner, id)).toBe(attempt < DATA_EXPORT_MAX_ATTEMPTS ? 'pending' : 'failed');
      api.clock.advance(DATA_EXPORT_LEASE_MS);
    }
    const download = await send(`${api.url}/v1/auth/me/exports/${id}/download`, { headers: session(owner) });
    expect(download.status).toBe(409);
    expect(problemOf(download).code).toBe('export_not_ready');
    const next = await start(owner);
    const job = await api.container.getAsync<DataExportScheduler>(DataExportSchedulerToken);
    expect((await job.runOnce()).built).toBe(1);
    expect(await statusOf(owner, next)).toBe('ready');
  });

  it('gives up an export whose builds never finished (its server stopped each time)', async () => {
    const owner = await createAccount(api);
    const id = await start(owner);
    const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
    for (let attempt = 1; attempt <= DATA_EXPORT_MAX_ATTEMPTS; attempt += 1) {
      const now = api.clock.now();
      const claimed = await uow.run((tx) =>
        tx.exports.claimPending(now, new Date(now.getTime() + DATA_EXPORT_LEASE_MS)),
      );
      expect(claimed?.id).toBe(id);
      api.clock.advance(DATA_EXPORT_LEASE_MS);
    }
    expect(await failing.buildNext()).toBe(true);
    expect(await statusOf(owner, id)).toBe('failed');
  });
});
