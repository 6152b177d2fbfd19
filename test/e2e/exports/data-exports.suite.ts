import { createHash } from 'node:crypto';
import { BLOCKLIST_CATALOGUE, UnitOfWork } from '@svc/domain';
import {
  type AccountErasureScheduler,
  AccountErasureSchedulerToken,
  type DataExportScheduler,
  DataExportSchedulerToken,
} from '@svc/http-server';
import { ApiError, createClient } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'correct horse battery';
const LIST = BLOCKLIST_CATALOGUE.lists[0]?.id ?? 1;

interface ExportView {
  id: string;
  status: string;
  created_at: string;
  completed_at: string | null;
  expires_at: string | null;
  size_bytes: number | null;
  download_url?: string;
}

/** GDPR data exports (ROUTES.md "Sign-in and account"; spec 4.1.5, 4.13, 7). */
export function runDataExportSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`data exports through HTTP on ${storage}`, () => {
    let api: ApiHarness;
    let job: DataExportScheduler;
    beforeAll(async () => {
      api = await startApi(storage);
      job = await api.container.getAsync<DataExportScheduler>(DataExportSchedulerToken);
      // The tests run the job themselves, so that "pending" is observable for as long as they need it.
      await job.stop();
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const session = (owner: TestAccount) => ({ cookie: `svc_session=${owner.cookie}` });
    const call = (method: string, path: string, headers: Record<string, string>, body?: object) =>
      send(`${api.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const start = async (owner: TestAccount, headers: Record<string, string> = {}) => {
      const answer = await call('POST', '/v1/auth/me/exports', { ...session(owner), ...headers });
      expect(answer.status, answer.text).toBe(202);
      return (answer.json as { export: ExportView }).export;
    };
    const read = async (owner: TestAccount, id: string) => {
      const answer = await call('GET', `/v1/auth/me/exports/${id}`, session(owner));
      expect(answer.status, answer.text).toBe(200);
      return (answer.json as { export: ExportView }).export;
    };

    it('is session only: API tokens get 403 session_required', async () => {
      const owner = await createAccount(api);
      for (const [method, path] of [
        ['POST', '/v1/auth/me/exports'],
        ['GET', '/v1/auth/me/exports'],
      ] as const) {
        const answer = await call(method, path, owner.auth);
        expect(answer.status).toBe(403);
        expect(problemOf(answer).code).toBe('session_required');
      }
    });

    it('starts pending (202 {export}), one at a time (409 export_in_progress), 409 export_not_ready before ready', async () => {
      const owner = await createAccount(api);
      const answer = await call('POST', '/v1/auth/me/exports', session(owner));
      expect(answer.status).toBe(202);
      const started = (answer.json as { export: ExportView }).export;
      expect(started).toMatchObject({ status: 'pending', completed_at: null, expires_at: null });
      expect(started.download_url).toBeUndefined();
      expect(answer.headers.location).toBe(`/v1/auth/me/exports/${started.id}`);

      const second = await call('POST', '/v1/auth/me/exports', session(owner));
      expect(second.status).toBe(409);
      expect(problemOf(second).code).toBe('export_in_progress');

      expect(await read(owner, started.id)).toMatchObject({ id: started.id, status: 'pending' });
      const early = await call('GET', `/v1/auth/me/exports/${started.id}/download`, session(owner));
      expect(early.status).toBe(409);
      expect(problemOf(early).code).toBe('export_not_ready');
    });

    it('builds the archive in the background: ready with download_url, and the document holds the account’s data without secrets', async () => {
      const owner = await createAccount(api);
      const created = await call('POST', '/v1/profiles', owner.auth, { name: 'Kids' });
      expect(created.status).toBe(201);
      const profileId = (created.json as { id: string }).id;
      expect(
        (
          await call('PUT', `/v1/profiles/${profileId}/rules`, owner.auth, {
            deny: ['ads.example.com'],
            allow: [],
            rewrites: [],
          })
        ).status,
      ).toBe(200);
      expect(
        (await call('POST', `/v1/profiles/${profileId}/linked-ips`, owner.auth, { ip: '198.51.100.77' }))
          .status,
      ).toBe(201);
      expect(
        (
          await call('POST', `/v1/profiles/${profileId}/list-reports`, owner.auth, {
            domain: 'shop.example.com',
            list_id: LIST,
            kind: 'false_positive',
          })
        ).status,
      ).toBe(202);
      expect(
        (await call('POST', '/v1/feedback', owner.auth, { message: 'Export me', rating: 4 })).status,
      ).toBe(202);
      const node = await call('POST', `/v1/profiles/${profileId}/nodes`, owner.auth, { name: 'home-rack' });
      expect(node.status, node.text).toBe(201);
      const { enrolment_code } = node.json as { enrolment_code: string };

      const started = await start(owner);
      expect((await job.runOnce()).built).toBeGreaterThanOrEqual(1);
      const ready = await read(owner, started.id);
      expect(ready.status).toBe('ready');
      expect(ready.download_url).toMatch(new RegExp(`/v1/auth/me/exports/${started.id}/download$`));
      expect(Date.parse(ready.expires_at ?? '') - Date.parse(ready.completed_at ?? '')).toBe(7 * DAY_MS);

      const download = await call('GET', new URL(ready.download_url ?? '').pathname, session(owner));
      expect(download.status).toBe(200);
      expect(download.headers['content-type']).toMatch(/^application\/x-ndjson/);
      expect(download.headers['content-disposition']).toBe(
        `attachment; filename="svc-export-${started.id}.jsonl"`,
      );
      expect(Buffer.byteLength(download.text)).toBe(ready.size_bytes);
      expect(download.headers['content-length']).toBe(String(ready.size_bytes));
      const digest = createHash('sha256').update(download.text);
      expect(download.headers.etag).toBe(`"${digest.copy().digest('hex')}"`);
      expect(download.headers['repr-digest']).toBe(`sha-256=:${digest.digest('base64')}:`);
      // JSON lines: the account's data on the first line (no query logs were stored for this profile).
      const lines = download.text.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      const archive = JSON.parse(lines[0] ?? '') as Record<string, unknown> & {
        type: string;
        format: { name: string; version: number };
        account: { email: string };
        profiles: Array<{
          id: string;
          rules: { deny: string[] };
          linked_ips: Array<{ ip: string }>;
          list_reports: Array<{ domain: string }>;
          nodes: Array<{ name: string }>;
        }>;
        api_tokens: Array<{ name: string }>;
        sessions: unknown[];
        feedback: Array<{ message: string }>;
        audit_entries: Array<{ action: string }>;
        preferences: { alerts: { node_offline: boolean } };
      };
      expect(archive.type).toBe('account_data');
      expect(archive.format).toEqual({ name: 'svc-account-export', version: 2 });
      expect(archive.account.email).toBe(owner.email);
      expect(archive.preferences).toEqual({ alerts: { node_offline: true } });
      const [profile] = archive.profiles;
      expect(profile?.id).toBe(profileId);
      expect(profile?.rules.deny).toEqual(['ads.example.com']);
      expect(profile?.linked_ips.map((link) => link.ip)).toEqual(['198.51.100.77']);
      expect(profile?.list_reports.map((report) => report.domain)).toEqual(['shop.example.com']);
      expect(profile?.nodes.map((entry) => entry.name)).toEqual(['home-rack']);
      expect(archive.api_tokens.map((token) => token.name)).toEqual(['tests']);
      expect(archive.sessions.length).toBeGreaterThanOrEqual(1);
      expect(archive.feedback.map((row) => row.message)).toEqual(['Export me']);
      expect(archive.audit_entries.map((entry) => entry.action)).toEqual(
        expect.arrayContaining(['session.created', 'token.created']),
      );
      // Metadata only: no API token secret, session token or node enrolment code is in the archive.
      expect(download.text).not.toContain(owner.token);
      expect(download.text).not.toContain(owner.cookie);
      expect(download.text).not.toContain(enrolment_code);
      expect(download.text).not.toMatch(/password_?hash|secret_?hash|token_?hash|totp_?secret/i);

      api.clock.advance(1000);
      const next = await start(owner);
      const list = await call('GET', '/v1/auth/me/exports', session(owner));
      expect(list.status).toBe(200);
      const page = list.json as { exports: ExportView[]; next_cursor: string | null };
      expect(page.exports.map((entry) => entry.id)).toEqual([next.id, started.id]);
      expect(page.next_cursor).toBeNull();
      const first = await call('GET', '/v1/auth/me/exports?limit=1', session(owner));
      const firstPage = first.json as { exports: ExportView[]; next_cursor: string };
      expect(firstPage.exports.map((entry) => entry.id)).toEqual([next.id]);
      const rest = await call(
        'GET',
        `/v1/auth/me/exports?limit=1&cursor=${encodeURIComponent(firstPage.next_cursor)}`,
        session(owner),
      );
      expect((rest.json as { exports: ExportView[] }).exports.map((entry) => entry.id)).toEqual([started.id]);
    });

    it('works through the SDK: client.auth.exports.create, get, list and download', async () => {
      const owner = await createAccount(api);
      const client = createClient({ baseUrl: api.url, sessionCookie: owner.cookie, maxRetries: 0 });
      const started = await client.auth.exports.create();
      expect(started.status).toBe('pending');
      const notReady = await client.auth.exports.download(started.id).catch((error: unknown) => error);
      expect(notReady).toBeInstanceOf(ApiError);
      expect((notReady as ApiError).code).toBe('export_not_ready');
      await job.runOnce();
      expect((await client.auth.exports.get(started.id)).status).toBe('ready');
      expect((await client.auth.exports.list().toArray()).map((entry) => entry.id)).toEqual([started.id]);
      const [first] = (await client.auth.exports.download(started.id)).split('\n');
      const archive = JSON.parse(first ?? '') as { type: string; export_id: string };
      expect(archive.type).toBe('account_data');
      expect(archive.export_id).toBe(started.id);
    });

    it('accepts Idempotency-Key: a repeat replays the first answer instead of 409', async () => {
      const owner = await createAccount(api);
      const key = { 'idempotency-key': `export-${owner.email}` };
      const first = await call('POST', '/v1/auth/me/exports', { ...session(owner), ...key });
      expect(first.status).toBe(202);
      const again = await call('POST', '/v1/auth/me/exports', { ...session(owner), ...key });
      expect(again.status).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json).toEqual(first.json);
    });

    it('answers 404 for another account’s export (status and download) and never lists it', async () => {
      const owner = await createAccount(api);
      const stranger = await createAccount(api);
      const started = await start(owner);
      await job.runOnce();
      for (const path of [
        `/v1/auth/me/exports/${started.id}`,
        `/v1/auth/me/exports/${started.id}/download`,
      ]) {
        const answer = await call('GET', path, session(stranger));
        expect(answer.status).toBe(404);
        expect(problemOf(answer).code).toBe('not_found');
      }
      const list = await call('GET', '/v1/auth/me/exports', session(stranger));
      expect((list.json as { exports: ExportView[] }).exports).toEqual([]);
      const malformed = await call('GET', '/v1/auth/me/exports/not-a-uuid', session(owner));
      expect(malformed.status).toBe(422);
    });

    it('deletes the account’s exports with the account at erasure', async () => {
      const owner = await createAccount(api);
      const started = await start(owner);
      await job.runOnce();
      const me = await call('GET', '/v1/auth/me', session(owner));
      const accountId = (me.json as { account: { id: string } }).account.id;
      expect((await call('DELETE', '/v1/auth/me', session(owner))).status).toBe(202);
      api.clock.advance(31 * DAY_MS);
      const erasure = await api.container.getAsync<AccountErasureScheduler>(AccountErasureSchedulerToken);
      expect(await erasure.runOnce()).toBeGreaterThanOrEqual(1);
      const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
      expect(await uow.run((tx) => tx.exports.find(accountId, started.id))).toBeNull();
    });

    it('expires 7 days after it is ready: status expired, no download_url, download 404, archive removed by the job', async () => {
      const owner = await createAccount(api);
      const started = await start(owner);
      await job.runOnce();
      expect((await read(owner, started.id)).status).toBe('ready');
      api.clock.advance(7 * DAY_MS + 1000);
      // Seven idle days end the session (spec 8): sign in again.
      const login = await call('POST', '/v1/auth/login', {}, { email: owner.email, password: PASSWORD });
      const cookie = /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1] ?? '';
      const fresh = { ...owner, cookie };
      const expired = await read(fresh, started.id);
      expect(expired.status).toBe('expired');
      expect(expired.download_url).toBeUndefined();
      const download = await call('GET', `/v1/auth/me/exports/${started.id}/download`, session(fresh));
      expect(download.status).toBe(404);
      expect(problemOf(download).code).toBe('not_found');
      expect((await job.runOnce()).expired).toBeGreaterThanOrEqual(1);
      const me = await call('GET', '/v1/auth/me', session(fresh));
      const accountId = (me.json as { account: { id: string } }).account.id;
      const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
      expect(await uow.run((tx) => tx.exports.chunk(accountId, started.id, 0, new Date(0)))).toBeNull();
      expect((await read(fresh, started.id)).status).toBe('expired');
    });
  });
}
