import { UnitOfWork } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';

interface AuditEntryBody {
  id: string;
  actor: string;
  action: string;
  target: string;
  created_at: string;
  client_ip: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
}
interface AuditPage {
  entries: AuditEntryBody[];
  next_cursor: string | null;
}

/** Deprecation moment and sunset of `release`, `route` and `at` (spec section 9 table). */
const DEPRECATION = `@${Date.UTC(2026, 8, 30) / 1000}`;
const SUNSET = 'Wed, 31 Mar 2027 00:00:00 GMT';

/**
 * Preferences, the organisation's audit log, dashboard error reports and feedback through HTTP (spec 2.2, 4.8,
 * 4.11, 6.2, 9; ROUTES.md).
 */
export function runAccountFeedbackSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `preferences, audit log, client errors and feedback on ${storage} (spec 2.2, 4.8, 4.11, 6.2, 9)`,
    () => {
      let api: ApiHarness;
      let owner: TestAccount;
      let stranger: TestAccount;
      let ownerId: string;

      beforeAll(async () => {
        api = await startApi(storage);
        owner = await createAccount(api);
        stranger = await createAccount(api);
        const me = await send(`${api.url}/v1/auth/me`, { headers: session(owner) });
        ownerId = (me.json as { account: { id: string } }).account.id;
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });

      const session = (who: TestAccount) => ({ cookie: `svc_session=${who.cookie}` });
      const call = (
        path: string,
        options: {
          method?: 'GET' | 'POST' | 'PATCH';
          headers?: Record<string, string>;
          body?: string | object;
        },
      ) => send(`${api.url}${path}`, options);
      const audit = async (query = '', who: TestAccount = owner): Promise<AuditPage> => {
        const answer = await call(`/v1/auth/audit${query}`, { headers: who.auth });
        expect(answer.status, answer.text).toBe(200);
        return answer.json as AuditPage;
      };
      const latest = async () => {
        const uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
        return uow.run(async (tx) => ({
          clientErrors: await tx.clientErrors.latest(20),
          feedback: await tx.feedback.latest(20),
        }));
      };

      describe('preferences (spec 2.2, 4.8)', () => {
        it('GET answers the defaults for unset keys, to a session only', async () => {
          const answer = await call('/v1/auth/me/preferences', { headers: session(owner) });
          expect(answer.status).toBe(200);
          expect(answer.json).toEqual({ alerts: { node_offline: true } });
          expectProblem(
            await call('/v1/auth/me/preferences', { headers: owner.auth }),
            403,
            'session_required',
          );
          expectProblem(await call('/v1/auth/me/preferences', {}), 401, 'unauthenticated');
        });

        it('PATCH merges, answers the preferences after the change and audits account.preferences_updated', async () => {
          const answer = await call('/v1/auth/me/preferences', {
            method: 'PATCH',
            headers: { ...session(owner), 'x-request-id': 'prefs-change-1' },
            body: { alerts: { node_offline: false } },
          });
          expect(answer.status, answer.text).toBe(200);
          expect(answer.json).toEqual({ alerts: { node_offline: false } });
          const read = await call('/v1/auth/me/preferences', { headers: session(owner) });
          expect(read.json).toEqual({ alerts: { node_offline: false } });
          const page = await audit('?action=account.preferences_updated');
          expect(page.entries).toHaveLength(1);
          expect(page.entries[0]).toMatchObject({
            actor: `account:${ownerId}`,
            action: 'account.preferences_updated',
            target: `accounts/${ownerId}/preferences`,
            details: { changed: { 'alerts.node_offline': false } },
          });
          expect(page.entries[0]?.client_ip).toEqual(expect.any(String));
          expect(page.entries[0]?.request_id).toEqual(expect.any(String));
          expect(Number.isNaN(Date.parse(page.entries[0]?.created_at ?? ''))).toBe(false);
        });

        it('PATCH refuses a body that changes nothing, unknown keys and non-booleans with 422 validation_failed', async () => {
          for (const body of [
            {},
            { alerts: {} },
            { alerts: { node_offline: false } },
            { theme: 'dark' },
            { alerts: { node_offline: true, weekly: true } },
            { alerts: { node_offline: 'yes' } },
          ]) {
            const answer = await call('/v1/auth/me/preferences', {
              method: 'PATCH',
              headers: session(owner),
              body,
            });
            expectProblem(answer, 422, 'validation_failed');
          }
          const malformed = await call('/v1/auth/me/preferences', {
            method: 'PATCH',
            headers: { ...session(owner), 'content-type': 'application/json' },
            body: '{"alerts":',
          });
          expectProblem(malformed, 400, 'bad_request');
          const byToken = await call('/v1/auth/me/preferences', {
            method: 'PATCH',
            headers: owner.auth,
            body: { alerts: { node_offline: true } },
          });
          expectProblem(byToken, 403, 'session_required');
          // Nothing of the refused requests was audited.
          expect((await audit('?action=account.preferences_updated')).entries).toHaveLength(1);
        });
      });

      describe('GET /v1/auth/audit (spec 4.13, 6.2)', () => {
        it('lists the organisation’s entries newest first, with sealed cursors, to a session or a token', async () => {
          await call('/v1/auth/me/preferences', {
            method: 'PATCH',
            headers: session(owner),
            body: { alerts: { node_offline: true } },
          });
          const first = await audit('?limit=1&action=account.preferences_updated');
          expect(first.entries).toHaveLength(1);
          expect(first.entries[0]?.details).toEqual({ changed: { 'alerts.node_offline': true } });
          expect(first.next_cursor).toEqual(expect.any(String));
          const second = await audit(
            `?limit=1&action=account.preferences_updated&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
          );
          expect(second.entries.map((entry) => entry.details)).toEqual([
            { changed: { 'alerts.node_offline': false } },
          ]);
          expect(second.next_cursor).toBeNull();
          expect(Number(first.entries[0]?.id)).toBeGreaterThan(Number(second.entries[0]?.id));
          const bySession = await call('/v1/auth/audit', { headers: session(owner) });
          expect(bySession.status).toBe(200);
        });

        it('filters by a repeated action and refuses an unknown action, a bad limit and a modified cursor', async () => {
          const both = await audit('?action=account.preferences_updated&action=device.update');
          expect(both.entries.every((entry) => entry.action === 'account.preferences_updated')).toBe(true);
          expect(both.entries.length).toBeGreaterThanOrEqual(2);
          expect((await audit('?action=device.update')).entries).toEqual([]);
          expectProblem(
            await call('/v1/auth/audit?action=nope', { headers: owner.auth }),
            422,
            'validation_failed',
          );
          expectProblem(
            await call('/v1/auth/audit?limit=0', { headers: owner.auth }),
            422,
            'validation_failed',
          );
          const first = await audit('?limit=1');
          const tampered = `${first.next_cursor ?? ''}x`;
          expectProblem(
            await call(`/v1/auth/audit?cursor=${encodeURIComponent(tampered)}`, { headers: owner.auth }),
            400,
            'invalid_cursor',
          );
        });

        it('shows another organisation nothing, and needs account:read', async () => {
          expect(
            (await audit('', stranger)).entries.filter(
              (entry) => entry.action === 'account.preferences_updated',
            ),
          ).toEqual([]);
          const narrow = await createAccount(api, ['profiles:read']);
          expectProblem(await call('/v1/auth/audit', { headers: narrow.auth }), 403, 'insufficient_scope');
          expectProblem(await call('/v1/auth/audit', {}), 401, 'unauthenticated');
        });
      });

      describe('audited identity and profile changes (spec 6.2)', () => {
        it('records the sign-in as session.created with its method, and the token as token.created', async () => {
          const signIns = (await audit('?action=session.created')).entries;
          expect(signIns).toHaveLength(1);
          expect(signIns[0]).toMatchObject({
            actor: `account:${ownerId}`,
            action: 'session.created',
            details: { method: 'password' },
          });
          expect(signIns[0]?.client_ip).toEqual(expect.any(String));
          const created = (await audit('?action=token.created')).entries;
          expect(created).toHaveLength(1);
          expect(created[0]).toMatchObject({ actor: `account:${ownerId}`, details: { name: 'tests' } });
        });

        it('records token revocation as token.revoked', async () => {
          const made = await call('/v1/tokens', {
            method: 'POST',
            headers: session(owner),
            body: { name: 'short-lived', scopes: ['profiles:read'] },
          });
          expect(made.status).toBe(201);
          const tokenId = (made.json as { token: { id: string } }).token.id;
          const revoked = await send(`${api.url}/v1/tokens/${tokenId}`, {
            method: 'DELETE',
            headers: session(owner),
          });
          expect(revoked.status).toBe(204);
          const entries = (await audit('?action=token.revoked')).entries;
          expect(entries).toHaveLength(1);
          expect(entries[0]).toMatchObject({ actor: `account:${ownerId}`, target: `tokens/${tokenId}` });
          // A refused revocation is not audited.
          const again = await send(`${api.url}/v1/tokens/${tokenId}`, {
            method: 'DELETE',
            headers: session(owner),
          });
          expectProblem(again, 404, 'not_found');
          expect((await audit('?action=token.revoked')).entries).toHaveLength(1);
        });

        it('records a password change as account.password_changed', async () => {
          const changer = await createAccount(api);
          const changed = await call('/v1/auth/password', {
            method: 'POST',
            headers: session(changer),
            body: { current_password: 'correct horse battery', new_password: 'another long passphrase' },
          });
          expect(changed.status, changed.text).toBe(200);
          const entries = (await audit('?action=account.password_changed', changer)).entries;
          expect(entries).toHaveLength(1);
          expect(entries[0]?.details).toMatchObject({ via: 'change' });
          expect((await audit('?action=account.password_changed')).entries).toEqual([]);
        });

        it('records a profile deletion as profile.deleted with the token as actor', async () => {
          const made = await call('/v1/profiles', {
            method: 'POST',
            headers: owner.auth,
            body: { name: 'Gone' },
          });
          expect(made.status).toBe(201);
          const profileId = (made.json as { id: string }).id;
          const deleted = await send(`${api.url}/v1/profiles/${profileId}`, {
            method: 'DELETE',
            headers: owner.auth,
          });
          expect(deleted.status).toBe(204);
          const entries = (await audit('?action=profile.deleted')).entries;
          expect(entries).toHaveLength(1);
          expect(entries[0]).toMatchObject({
            actor: expect.stringMatching(/^token:/),
            target: `profiles/${profileId}`,
            details: { name: 'Gone' },
          });
        });
      });

      describe('POST /v1/client-errors (spec 4.11, 9)', () => {
        it('stores a scrubbed report and answers 202 {id} without deprecation headers', async () => {
          const answer = await call('/v1/client-errors', {
            method: 'POST',
            headers: owner.auth,
            body: {
              message: `Failed with svc_${'a'.repeat(52)} for someone@example.com`,
              stack: 'at fetch (svcnode_abcDEF123456) cookie svc_session=secretvalue123',
              url: 'https://dash.example/reset?token=rst_abc&password=hunter2&x=1',
              user_agent: 'Mozilla/5.0',
              dashboard_version: '1.2.3',
              sampled_rate: 0.5,
              kind: 'unhandledrejection',
              name: 'TypeError',
            },
          });
          expect(answer.status, answer.text).toBe(202);
          const { id } = answer.json as { id: string };
          expect(id).toEqual(expect.any(String));
          expect(answer.headers.deprecation).toBeUndefined();
          expect(answer.headers.sunset).toBeUndefined();
          const stored = (await latest()).clientErrors.find((row) => row.id === id);
          expect(stored).toMatchObject({
            accountId: ownerId,
            actor: expect.stringMatching(/^token:/),
            message: 'Failed with svc_[redacted] for [email]',
            stack: 'at fetch (svcnode_[redacted]) cookie svc_session=[redacted]',
            url: 'https://dash.example/reset?token=[redacted]&password=[redacted]&x=1',
            userAgent: 'Mozilla/5.0',
            dashboardVersion: '1.2.3',
            sampledRate: 0.5,
            kind: 'unhandledrejection',
            name: 'TypeError',
          });
        });

        it('maps release and route, ignores at, and answers Deprecation and Sunset when they are used', async () => {
          const answer = await call('/v1/client-errors', {
            method: 'POST',
            headers: session(owner),
            body: { message: 'old client', release: '0.9.0', route: '/profiles', at: '2026-01-01T00:00:00Z' },
          });
          expect(answer.status, answer.text).toBe(202);
          expect(answer.headers.deprecation).toBe(DEPRECATION);
          expect(answer.headers.sunset).toBe(SUNSET);
          const { id } = answer.json as { id: string };
          const stored = (await latest()).clientErrors.find((row) => row.id === id);
          expect(stored).toMatchObject({
            dashboardVersion: '0.9.0',
            url: '/profiles',
            actor: `account:${ownerId}`,
          });
          expect(stored?.createdAt.getTime()).toBe(api.clock.now().getTime());
          const onlyAt = await call('/v1/client-errors', {
            method: 'POST',
            headers: owner.auth,
            body: { message: 'at only', at: 'whenever' },
          });
          expect(onlyAt.status).toBe(202);
          expect(onlyAt.headers.deprecation).toBe(DEPRECATION);
        });

        it('refuses invalid reports (422), over 32 KiB (400 body_too_large) and a token without account:read (403)', async () => {
          for (const body of [
            {},
            { message: '' },
            { message: 'x', sampled_rate: 2 },
            { message: 'x', sampled_rate: -0.1 },
          ]) {
            expectProblem(
              await call('/v1/client-errors', { method: 'POST', headers: owner.auth, body }),
              422,
              'validation_failed',
            );
          }
          const tooLarge = await call('/v1/client-errors', {
            method: 'POST',
            headers: owner.auth,
            body: { message: 'big', stack: 'x'.repeat(33 * 1024) },
          });
          expectProblem(tooLarge, 400, 'body_too_large');
          const narrow = await createAccount(api, ['profiles:read']);
          expectProblem(
            await call('/v1/client-errors', { method: 'POST', headers: narrow.auth, body: { message: 'x' } }),
            403,
            'insufficient_scope',
          );
          expectProblem(
            await call('/v1/client-errors', { method: 'POST', body: { message: 'x' } }),
            401,
            'unauthenticated',
          );
        });

        it('accepts 10 reports a minute per account, then 429 rate_limited with Retry-After', async () => {
          const reporter = await createAccount(api);
          for (let count = 0; count < 10; count += 1) {
            const answer = await call('/v1/client-errors', {
              method: 'POST',
              headers: reporter.auth,
              body: { message: `report ${count}` },
            });
            expect(answer.status).toBe(202);
          }
          const limited = await call('/v1/client-errors', {
            method: 'POST',
            headers: reporter.auth,
            body: { message: 'one too many' },
          });
          expectProblem(limited, 429, 'rate_limited');
          expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
          // Another account is not limited by it.
          const other = await call('/v1/client-errors', {
            method: 'POST',
            headers: stranger.auth,
            body: { message: 'mine' },
          });
          expect(other.status).toBe(202);
        });
      });

      describe('POST /v1/feedback (ROUTES.md)', () => {
        it('stores feedback with account, organisation and time and answers 202 {id}', async () => {
          const answer = await call('/v1/feedback', {
            method: 'POST',
            headers: owner.auth,
            body: { message: 'Love the map', rating: 5, url: 'https://dash.example/analytics' },
          });
          expect(answer.status, answer.text).toBe(202);
          const { id } = answer.json as { id: string };
          const stored = (await latest()).feedback.find((row) => row.id === id);
          expect(stored).toMatchObject({
            accountId: ownerId,
            message: 'Love the map',
            rating: 5,
            url: 'https://dash.example/analytics',
          });
          expect(stored?.orgId).toEqual(expect.any(String));
          expect(stored?.createdAt.getTime()).toBe(api.clock.now().getTime());
          const bySession = await call('/v1/feedback', {
            method: 'POST',
            headers: session(owner),
            body: { message: 'no rating' },
          });
          expect(bySession.status).toBe(202);
        });

        it('refuses an empty or too long message and a rating outside 1..5 with 422, no credential with 401', async () => {
          for (const body of [
            {},
            { message: '' },
            { message: 'x'.repeat(5001) },
            { message: 'x', rating: 0 },
            { message: 'x', rating: 6 },
            { message: 'x', rating: 2.5 },
          ]) {
            expectProblem(
              await call('/v1/feedback', { method: 'POST', headers: owner.auth, body }),
              422,
              'validation_failed',
            );
          }
          expectProblem(
            await call('/v1/feedback', { method: 'POST', body: { message: 'x' } }),
            401,
            'unauthenticated',
          );
        });
      });
    },
  );
}
