import { type AccountRecord, UnitOfWork } from '@svc/domain';
import { PostgresToken } from '@svc/http-server';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'correct horse battery';

/**
 * Cancel once erasure has begun (spec 3: "Account | erasure begun | cancel | 409 deletion_started"): the
 * owner's session still works, but POST /v1/auth/me/undelete cannot stop an erasure that was claimed.
 */
export function runDeletionStartedSuite(
  storage: HarnessStorage,
  options: { skip?: boolean; raceOnServer?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`undelete after erasure began on ${storage} (spec 3, 7)`, () => {
    let api: ApiHarness;
    let uow: UnitOfWork;
    beforeAll(async () => {
      api = await startApi(storage);
      uow = await api.container.getAsync<UnitOfWork>(UnitOfWork);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const session = (owner: TestAccount) => ({ cookie: `svc_session=${owner.cookie}` });
    const undelete = (owner: TestAccount) =>
      send(`${api.url}/v1/auth/me/undelete`, { method: 'POST', headers: session(owner) });
    /** An owner whose deletion is due now, and its account id. */
    const dueOwner = async () => {
      const owner = await createAccount(api);
      const me = await send(`${api.url}/v1/auth/me`, { headers: session(owner) });
      const accountId = (me.json as { account: { id: string } }).account.id;
      const deleted = await send(`${api.url}/v1/auth/me`, { method: 'DELETE', headers: session(owner) });
      expect(deleted.status).toBe(202);
      api.clock.advance(30 * DAY_MS + 1000);
      // The session that asked has ended by now (30 days at most, spec 8): the owner signs in again to cancel.
      const login = await send(`${api.url}/v1/auth/login`, {
        method: 'POST',
        body: { email: owner.email, password: PASSWORD },
      });
      expect(login.status).toBe(200);
      const cookie = /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1] ?? '';
      return { owner: { ...owner, cookie }, accountId };
    };
    /** Claims every due account (as the erasure job does first) and returns the claimed ids. */
    const claimDue = async (): Promise<AccountRecord[]> => {
      const claimed: AccountRecord[] = [];
      for (;;) {
        const account = await uow.run((tx) => tx.identity.accounts.claimDueErasure(api.clock.now()));
        if (account === null) return claimed;
        claimed.push(account);
      }
    };

    it('answers 409 deletion_started once the erasure has claimed the account, then the erasure completes', async () => {
      const { owner, accountId } = await dueOwner();
      expect((await claimDue()).map((account) => account.id)).toContain(accountId);
      const answer = await undelete(owner);
      expect(answer.status).toBe(409);
      expect(problemOf(answer)).toMatchObject({ status: 409, code: 'deletion_started' });
      const me = await send(`${api.url}/v1/auth/me`, { headers: session(owner) });
      expect(
        (me.json as { account: { deletion_due_at: string | null } }).account.deletion_due_at,
      ).not.toBeNull();

      await uow.run((tx) => tx.identity.accounts.erase(accountId, api.clock.now()));
      expect((await undelete(owner)).status).toBe(401);
    });

    it.skipIf(options.raceOnServer !== true)(
      'loses a real race: an undelete waiting on the row an erasure holds answers 409 deletion_started',
      async () => {
        const { owner, accountId } = await dueOwner();
        const pool = (await api.container.getAsync<{ pool: pg.Pool }>(PostgresToken)).pool;
        let release: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        let claimedId: (id: string | undefined) => void = () => undefined;
        const claimed = new Promise<string | undefined>((resolve) => {
          claimedId = resolve;
        });
        // The erasure job's transaction, held open between its claim and its erase.
        const erasure = uow.run(async (tx) => {
          const account = await tx.identity.accounts.claimDueErasure(api.clock.now());
          claimedId(account?.id);
          await gate;
          if (account === null) return;
          await tx.profiles.eraseAll(account.orgId);
          await tx.identity.accounts.erase(account.id, api.clock.now());
        });
        try {
          expect(await claimed).toBe(accountId);
          const racing = undelete(owner);
          // Wait (by state, not by time) until the undelete is blocked on the account row the erasure holds.
          const waiting = await eventually(
            async () =>
              Number(
                (
                  await pool.query<{ count: string }>(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
                  )
                ).rows[0]?.count,
              ),
            (count) => count >= 1,
            10_000,
          );
          expect(waiting).toBeGreaterThanOrEqual(1);
          release();
          const answer = await racing;
          expect(answer.status).toBe(409);
          expect(problemOf(answer).code).toBe('deletion_started');
        } finally {
          release();
          await erasure;
        }
      },
    );
  });
}
