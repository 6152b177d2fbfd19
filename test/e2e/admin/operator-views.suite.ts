import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { createOperator, type TestOperator } from './operator-fixture.js';

interface Entry {
  id: string;
  org_id: string;
  action: string;
  target: string;
}
const DAY = 86_400_000;

/**
 * Operator views across organisations (spec 2.10, 4.10, 4.13; ROUTES.md "Operator"): every organisation's
 * audit log with org and action filters, dashboard error reports of the last 30 days and feedback of the last
 * 365 days, newest first with cursors.
 */
export function runOperatorViewsSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`operator views on ${storage} (spec 4.10, 4.13)`, () => {
    let api: ApiHarness;
    let operator: TestOperator;
    let first: TestAccount;
    let second: TestAccount;

    beforeAll(async () => {
      api = await startApi(storage);
      operator = await createOperator(api);
      first = await createAccount(api);
      second = await createAccount(api);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const get = (path: string) => send(`${api.url}${path}`, { headers: operator.admin });
    const orgOf = async (who: TestAccount) =>
      ((await send(`${api.url}/v1/auth/me`, { headers: who.auth })).json as { account: { org_id: string } })
        .account.org_id;

    it('lists every organisation’s audit entries newest first, filtered by org_id and action', async () => {
      const [firstOrg, secondOrg] = [await orgOf(first), await orgOf(second)];
      const all = (await get('/v1/admin/audit?limit=200')).json as { entries: Entry[] };
      const orgs = new Set(all.entries.map((entry) => entry.org_id));
      expect(orgs.has(firstOrg) && orgs.has(secondOrg)).toBe(true);
      const ids = all.entries.map((entry) => Number(entry.id));
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);
      const onlyFirst = (await get(`/v1/admin/audit?org_id=${firstOrg}&limit=200`)).json as {
        entries: Entry[];
      };
      expect(onlyFirst.entries.length).toBeGreaterThan(0);
      expect(onlyFirst.entries.every((entry) => entry.org_id === firstOrg)).toBe(true);
      const tokens = (await get('/v1/admin/audit?action=token.created&limit=200')).json as {
        entries: Entry[];
      };
      expect(tokens.entries.length).toBeGreaterThanOrEqual(3);
      expect(tokens.entries.every((entry) => entry.action === 'token.created')).toBe(true);
      const pages: string[] = [];
      let cursor: string | null = null;
      do {
        const answer = await get(
          `/v1/admin/audit?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        );
        const body = answer.json as { entries: Entry[]; next_cursor: string | null };
        pages.push(...body.entries.map((entry) => entry.id));
        cursor = body.next_cursor;
      } while (cursor !== null);
      expect(pages).toEqual(all.entries.map((entry) => entry.id));
      const badAction = await get('/v1/admin/audit?action=nope');
      expect(badAction.status).toBe(422);
      const badOrg = await get('/v1/admin/audit?org_id=nope');
      expect((problemOf(badOrg) as { errors: { field: string }[] }).errors[0]?.field).toBe('org_id');
    });

    it('lists dashboard error reports of every account from the last 30 days only', async () => {
      const report = (who: TestAccount, message: string) =>
        send(`${api.url}/v1/client-errors`, { method: 'POST', headers: who.auth, body: { message } });
      expect((await report(first, 'old failure')).status).toBeLessThan(300);
      api.clock.advance(31 * DAY);
      expect((await report(first, 'first failure')).status).toBeLessThan(300);
      expect((await report(second, 'second failure')).status).toBeLessThan(300);
      const answer = await get('/v1/admin/client-errors?limit=1');
      expect(answer.status).toBe(200);
      const page = answer.json as {
        client_errors: { message: string; account_id: string }[];
        next_cursor: string;
      };
      expect(page.client_errors.map((entry) => entry.message)).toEqual(['second failure']);
      const next = (await get(`/v1/admin/client-errors?cursor=${encodeURIComponent(page.next_cursor)}`))
        .json as {
        client_errors: { message: string }[];
        next_cursor: string | null;
      };
      expect(next.client_errors.map((entry) => entry.message)).toEqual(['first failure']);
      expect(next.next_cursor).toBeNull();
    });

    it('lists feedback of every account from the last 365 days', async () => {
      const feedback = (who: TestAccount, message: string) =>
        send(`${api.url}/v1/feedback`, { method: 'POST', headers: who.auth, body: { message } });
      expect((await feedback(first, 'last year')).status).toBe(202);
      api.clock.advance(366 * DAY);
      expect((await feedback(first, 'love it')).status).toBe(202);
      expect((await feedback(second, 'needs dark mode')).status).toBe(202);
      const answer = (await get('/v1/admin/feedback')).json as { feedback: { message: string }[] };
      expect(answer.feedback.map((entry) => entry.message)).toEqual(['needs dark mode', 'love it']);
      for (const path of ['/v1/admin/feedback', '/v1/admin/client-errors', '/v1/admin/audit']) {
        expect((await send(`${api.url}${path}`, { headers: first.auth })).status).toBe(403);
        expect((await send(`${api.url}${path}`, { headers: operator.noAdmin })).status).toBe(403);
      }
    });
  });
}
