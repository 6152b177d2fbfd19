import { type BusDelivery, MessageBus } from '@svc/domain';
import { type AccountErasureScheduler, AccountErasureSchedulerToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const withCookie = (account: TestAccount) => ({ cookie: `svc_session=${account.cookie}` });

/** Account deletion with cooling-off, undelete and erasure (spec 2.1, 3, 6.2, 6.4, 7). */
export function runAccountDeletionSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`account deletion through HTTP on ${storage} (spec 3)`, () => {
    let api: ApiHarness;
    const published: BusDelivery[] = [];
    beforeAll(async () => {
      api = await startApi(storage);
      const bus = await api.container.getAsync<MessageBus>(MessageBus);
      await bus.subscribe('profiles.>', (delivery) => {
        published.push(delivery);
      });
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const call = (method: string, path: string, headers: Record<string, string>, body?: object) =>
      send(`${api.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const documentsOf = (id: string) =>
      published
        .filter((delivery) => delivery.subject === `profiles.${id}`)
        .map((delivery) => delivery.payload as Record<string, unknown>);
    /** `account` with a new session of its own (password sign-in), as the owner's browser gets one. */
    const signIn = async (account: TestAccount): Promise<TestAccount> => {
      const login = await call(
        'POST',
        '/v1/auth/login',
        {},
        { email: account.email, password: 'correct horse battery' },
      );
      expect(login.status).toBe(200);
      const cookie = /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1] ?? '';
      return { ...account, cookie };
    };
    const createProfile = async (owner: TestAccount) => {
      const answer = await call('POST', '/v1/profiles', owner.auth, { name: 'Home' });
      expect(answer.status).toBe(201);
      return (answer.json as { id: string }).id;
    };

    it('needs a recent sign-in (403 reauth_required) and refuses API tokens (403 session_required)', async () => {
      const owner = await createAccount(api);
      expect(problemOf(await call('DELETE', '/v1/auth/me', owner.auth)).code).toBe('session_required');
      api.clock.advance(6 * 60 * 1000);
      expect(problemOf(await call('DELETE', '/v1/auth/me', withCookie(owner))).code).toBe('reauth_required');
    });

    it('starts the deletion: 202 {account} with due date, tombstones, every session and token revoked (the asking one too); sign in again, 403 writes; undelete restores', async () => {
      const asker = await createAccount(api);
      const profileId = await createProfile(asker);
      const other = await signIn(asker);
      const deleted = await call('DELETE', '/v1/auth/me', withCookie(asker));
      expect(deleted.status).toBe(202);
      // Spec 3: "sessions, tokens and nodes revoked", the session that asked included; its cookie is cleared.
      expect(deleted.headers['set-cookie']).toMatch(/^svc_session=;.*Expires=Thu, 01 Jan 1970/);
      expect((await call('GET', '/v1/auth/me', withCookie(asker))).status).toBe(401);
      expect((await call('GET', '/v1/auth/me', withCookie(other))).status).toBe(401);
      expect((await call('POST', '/v1/auth/me/undelete', withCookie(asker))).status).toBe(401);
      const owner = await signIn(asker);
      const { account } = deleted.json as {
        account: { deletion_requested_at: string; deletion_due_at: string };
      };
      expect(Date.parse(account.deletion_due_at) - Date.parse(account.deletion_requested_at)).toBe(
        14 * DAY_MS,
      );
      await eventually(
        async () => documentsOf(profileId),
        (documents) => documents.at(-1)?.kind === 'tombstone',
      );
      expect((await call('GET', '/v1/auth/me', asker.auth)).status).toBe(401);
      const me = await call('GET', '/v1/auth/me', withCookie(owner));
      expect(me.status).toBe(200);
      expect((me.json as { account: { deletion_due_at: string } }).account.deletion_due_at).toBe(
        account.deletion_due_at,
      );
      expect((await call('GET', `/v1/profiles/${profileId}`, withCookie(owner))).status).toBe(404);
      const write = await call('POST', '/v1/profiles', withCookie(owner), { name: 'Other' });
      expect(write.status).toBe(403);
      expect(problemOf(write).code).toBe('account_pending_deletion');

      const undeleted = await call('POST', '/v1/auth/me/undelete', withCookie(owner));
      expect(undeleted.status).toBe(200);
      expect(undeleted.json).toEqual({ status: 'active' });
      await eventually(
        async () => documentsOf(profileId),
        (documents) => documents.at(-1)?.kind === 'profile',
      );
      const tombstone = documentsOf(profileId).find((document) => document.kind === 'tombstone');
      expect(Number(documentsOf(profileId).at(-1)?.version)).toBeGreaterThan(Number(tombstone?.version));
      expect((await call('GET', `/v1/profiles/${profileId}`, withCookie(owner))).status).toBe(200);
      expect((await call('GET', '/v1/auth/me', asker.auth)).status).toBe(401);
      expect((await call('GET', '/v1/auth/me', withCookie(asker))).status).toBe(401);
      const mails = await eventually(
        () => api.mailTo(owner.email),
        (found) => found.some((mail) => mail.includes('was cancelled')),
      );
      expect(mails.some((mail) => mail.includes('was cancelled'))).toBe(true);
      const audit = await call('GET', '/v1/auth/audit', withCookie(owner));
      expect(JSON.stringify(audit.json)).toContain('account.deletion_canceled');
      const again = await call('POST', '/v1/auth/me/undelete', withCookie(owner));
      expect(again.status).toBe(409);
      expect(problemOf(again).code).toBe('no_deletion_pending');
    });

    it('erases the account when the cooling-off ends; undelete then answers 409', async () => {
      const owner = await createAccount(api);
      const profileId = await createProfile(owner);
      expect((await call('DELETE', '/v1/auth/me', withCookie(owner))).status).toBe(202);
      api.clock.advance(30 * DAY_MS + 1000);
      const scheduler = await api.container.getAsync<AccountErasureScheduler>(AccountErasureSchedulerToken);
      expect(await scheduler.runOnce()).toBeGreaterThanOrEqual(1);
      expect((await call('GET', '/v1/auth/me', withCookie(owner))).status).toBe(401);
      const login = await call(
        'POST',
        '/v1/auth/login',
        {},
        { email: owner.email, password: 'correct horse battery' },
      );
      expect(login.status).toBe(401);
      expect(documentsOf(profileId).at(-1)?.kind).toBe('tombstone');
    });
  });
}
