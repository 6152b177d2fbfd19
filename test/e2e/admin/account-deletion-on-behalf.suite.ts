import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { createProfile } from '../../support/profiles.js';
import { createOperator, type TestOperator } from './operator-fixture.js';

const PASSWORD = 'correct horse battery';

interface AuditEntries {
  entries: { action: string; target: string; actor: string; details: Record<string, unknown> }[];
}

/**
 * Account deletion on an owner's behalf and its cancel by an operator (spec 3, 4.10, 6.2, 6.4): the owner's
 * credentials revoked at once, `admin.deletion_requested` and `admin.deletion_canceled` in the operator's
 * organisation with reason and ticket, `account.deletion_canceled` in the account's, the email quoting the
 * ticket; the owner can still cancel by signing in.
 */
export function runAccountDeletionOnBehalfSuite(
  storage: HarnessStorage,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(
    `account deletion on an owner's behalf on ${storage} (spec 3, 4.10)`,
    () => {
      let api: ApiHarness;
      let operator: TestOperator;

      beforeAll(async () => {
        api = await startApi(storage);
        operator = await createOperator(api);
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });

      const accountIdOf = async (who: TestAccount): Promise<string> =>
        ((await send(`${api.url}/v1/auth/me`, { headers: who.auth })).json as { account: { id: string } })
          .account.id;
      const deletion = (id: string) => `${api.url}/v1/admin/accounts/${id}/deletion`;
      const operatorAudit = async (action: string) =>
        (
          (await send(`${api.url}/v1/auth/audit?action=${action}`, { headers: operator.admin }))
            .json as AuditEntries
        ).entries;
      const login = async (email: string): Promise<string> => {
        const answer = await send(`${api.url}/v1/auth/login`, {
          method: 'POST',
          body: { email, password: PASSWORD },
        });
        return /svc_session=([^;]*)/.exec(answer.headers['set-cookie'] ?? '')?.[1] ?? '';
      };

      it('starts the deletion: 202 {account} with deletion_due_at, credentials revoked, audited with reason and ticket', async () => {
        const owner = await createAccount(api);
        const id = await accountIdOf(owner);
        await createProfile(api, owner);
        const started = await send(deletion(id), {
          method: 'POST',
          headers: operator.admin,
          body: { reason: 'owner asked by email', ticket: 'T-4411' },
        });
        expect(started.status, started.text).toBe(202);
        const account = (started.json as { account: { id: string; deletion_due_at: string | null } }).account;
        expect(account.id).toBe(id);
        expect(account.deletion_due_at).not.toBeNull();
        expect((await send(`${api.url}/v1/profiles`, { headers: owner.auth })).status).toBe(401);
        expect(
          (await send(`${api.url}/v1/profiles`, { headers: { cookie: `svc_session=${owner.cookie}` } }))
            .status,
        ).toBe(401);
        const entry = (await operatorAudit('admin.deletion_requested')).find(
          (e) => e.target === `accounts/${id}`,
        );
        expect(entry?.details).toMatchObject({ reason: 'owner asked by email', ticket: 'T-4411' });
        expect(entry?.actor).toMatch(/^token:/);
        const again = await send(deletion(id), {
          method: 'POST',
          headers: operator.admin,
          body: { reason: 'twice' },
        });
        expect(again.status).toBe(409);
        expect(problemOf(again).code).toBe('deletion_pending');
      });

      it('cancels on the owner’s behalf: active again, both audit entries, the email quoting the ticket; 409 when nothing is pending', async () => {
        const owner = await createAccount(api);
        const id = await accountIdOf(owner);
        await send(deletion(id), {
          method: 'POST',
          headers: operator.admin,
          body: { reason: 'requested by email' },
        });
        const canceled = await send(deletion(id), {
          method: 'DELETE',
          headers: operator.admin,
          body: { reason: 'owner changed their mind', ticket: 'T-5522' },
        });
        expect(canceled.status, canceled.text).toBe(200);
        expect(canceled.json).toEqual({ status: 'active' });
        const adminEntry = (await operatorAudit('admin.deletion_canceled')).find(
          (e) => e.target === `accounts/${id}`,
        );
        expect(adminEntry?.details).toMatchObject({ reason: 'owner changed their mind', ticket: 'T-5522' });
        const cookie = await login(owner.email);
        const ownerAudit = await send(`${api.url}/v1/auth/audit?action=account.deletion_canceled`, {
          headers: { cookie: `svc_session=${cookie}` },
        });
        const ownerEntries = (ownerAudit.json as AuditEntries).entries;
        expect(ownerEntries.map((entry) => entry.target)).toEqual([`accounts/${id}`]);
        expect(ownerAudit.text).not.toContain('owner changed their mind');
        const mails = await eventually(
          () => api.mailTo(owner.email),
          (found) => found.some((mail) => mail.includes('T-5522')),
        );
        expect(mails.some((mail) => mail.includes('Reference: T-5522'))).toBe(true);
        const twice = await send(deletion(id), { method: 'DELETE', headers: operator.admin, body: {} });
        expect(twice.status).toBe(409);
        expect(problemOf(twice).code).toBe('no_deletion_pending');
      });

      it('lets the owner cancel an operator’s deletion by signing in and undeleting', async () => {
        const owner = await createAccount(api);
        const id = await accountIdOf(owner);
        await send(deletion(id), { method: 'POST', headers: operator.admin, body: { reason: 'by email' } });
        const cookie = await login(owner.email);
        const undone = await send(`${api.url}/v1/auth/me/undelete`, {
          method: 'POST',
          headers: { cookie: `svc_session=${cookie}` },
        });
        expect(undone.status, undone.text).toBe(200);
        expect(undone.json).toEqual({ status: 'active' });
      });

      it('answers 404 for an unknown account, 422 without a reason, 403 without the admin scope', async () => {
        const unknown = await send(deletion('00000000-0000-4000-8000-000000000000'), {
          method: 'POST',
          headers: operator.admin,
          body: { reason: 'x' },
        });
        expect(unknown.status).toBe(404);
        const owner = await createAccount(api);
        const id = await accountIdOf(owner);
        const noReason = await send(deletion(id), { method: 'POST', headers: operator.admin, body: {} });
        expect(noReason.status).toBe(422);
        expect((problemOf(noReason) as { errors: { field: string }[] }).errors[0]?.field).toBe('reason');
        for (const method of ['POST', 'DELETE'] as const) {
          for (const headers of [owner.auth, operator.noAdmin]) {
            const refused = await send(deletion(id), { method, headers, body: { reason: 'x' } });
            expect(refused.status).toBe(403);
            expect(problemOf(refused).code).toBe('insufficient_scope');
          }
        }
      });
    },
  );
}
