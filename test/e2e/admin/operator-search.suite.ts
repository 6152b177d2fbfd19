import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { createOperator, type TestOperator } from './operator-fixture.js';

interface AccountMatch {
  id: string;
  org_id: string;
  email: string;
}
interface ProfileMatch {
  id: string;
  org_id: string;
  name: string;
  owner_email: string | null;
}

/**
 * Operator search (ROUTES.md "Operator"): accounts by part of their email or by id, profiles by part of their
 * name, by id or by part of an account's email, across organisations, paged, for operators only.
 */
export function runOperatorSearchSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`operator search on ${storage} (ROUTES.md Operator)`, () => {
    let api: ApiHarness;
    let operator: TestOperator;
    let first: TestAccount;
    let second: TestAccount;
    let firstProfile: { id: string; name: string };

    beforeAll(async () => {
      api = await startApi(storage);
      operator = await createOperator(api);
      first = await createAccount(api);
      second = await createAccount(api);
      const created = await send(`${api.url}/v1/profiles`, {
        method: 'POST',
        headers: first.auth,
        body: { name: 'Kitchen 50%_Tablet' },
      });
      firstProfile = created.json as { id: string; name: string };
      for (const name of ['Office', 'Garage', 'Loft']) {
        api.clock.advance(1000);
        await send(`${api.url}/v1/profiles`, { method: 'POST', headers: second.auth, body: { name } });
      }
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const get = (path: string, headers = operator.admin) => send(`${api.url}${path}`, { headers });
    const accounts = async (q: string) =>
      ((await get(`/v1/admin/accounts?q=${encodeURIComponent(q)}`)).json as { accounts: AccountMatch[] })
        .accounts;
    const profiles = async (q: string) =>
      ((await get(`/v1/admin/profiles?q=${encodeURIComponent(q)}`)).json as { profiles: ProfileMatch[] })
        .profiles;

    it('finds accounts by part of their email in any case, and by account or organisation id', async () => {
      const local = first.email.split('@')[0] ?? '';
      const byPart = await accounts(local.toUpperCase());
      expect(byPart.map((account) => account.email)).toEqual([first.email]);
      const found = byPart[0] as AccountMatch;
      expect((await accounts(found.id)).map((account) => account.email)).toEqual([first.email]);
      expect((await accounts(found.org_id)).map((account) => account.email)).toEqual([first.email]);
      const everyone = await accounts('@example.test');
      expect(everyone.map((account) => account.email)).toEqual(
        expect.arrayContaining([first.email, second.email, operator.email]),
      );
      expect(await accounts('nobody-here@')).toEqual([]);
    });

    it('finds profiles by part of their name, by id and by part of an account’s email, with the owner', async () => {
      const byName = await profiles('kitchen');
      expect(byName.map((profile) => profile.id)).toEqual([firstProfile.id]);
      expect(byName[0]?.owner_email).toBe(first.email);
      expect((await profiles(firstProfile.id)).map((profile) => profile.name)).toEqual([firstProfile.name]);
      const bySecondEmail = await profiles(second.email);
      expect(bySecondEmail.map((profile) => profile.name)).toEqual(['Loft', 'Garage', 'Office']);
      // % and _ are plain characters, not patterns.
      expect((await profiles('50%_t')).map((profile) => profile.id)).toEqual([firstProfile.id]);
      expect(await profiles('%')).toHaveLength(1);
      expect(await profiles('_')).toHaveLength(1);
    });

    it('pages newest first with a cursor bound to its search text', async () => {
      const firstPage = await get(`/v1/admin/profiles?q=${encodeURIComponent(second.email)}&limit=2`);
      const body = firstPage.json as { profiles: ProfileMatch[]; next_cursor: string | null };
      expect(body.profiles.map((profile) => profile.name)).toEqual(['Loft', 'Garage']);
      expect(body.next_cursor).not.toBeNull();
      const cursor = encodeURIComponent(body.next_cursor ?? '');
      const next = await get(
        `/v1/admin/profiles?q=${encodeURIComponent(second.email)}&limit=2&cursor=${cursor}`,
      );
      const rest = next.json as { profiles: ProfileMatch[]; next_cursor: string | null };
      expect(rest.profiles.map((profile) => profile.name)).toEqual(['Office']);
      expect(rest.next_cursor).toBeNull();
      const otherSearch = await get(`/v1/admin/profiles?q=kitchen&limit=2&cursor=${cursor}`);
      expect(otherSearch.status).toBe(400);
      expect((problemOf(otherSearch) as { code: string }).code).toBe('invalid_cursor');
    });

    it('refuses a missing, empty or over-long q with 422 naming q', async () => {
      for (const query of ['', '?q=', '?q=%20%20', `?q=${'a'.repeat(201)}`]) {
        for (const path of ['/v1/admin/accounts', '/v1/admin/profiles']) {
          const answer = await get(`${path}${query}`);
          expect(answer.status).toBe(422);
          expect((problemOf(answer) as { errors: { field: string }[] }).errors[0]?.field).toBe('q');
        }
      }
    });

    it('answers 403 to customers and to an operator’s token without the admin scope', async () => {
      for (const path of ['/v1/admin/accounts?q=example', '/v1/admin/profiles?q=kitchen']) {
        expect((await get(path, first.auth)).status).toBe(403);
        expect((await get(path, operator.noAdmin)).status).toBe(403);
        expect((await send(`${api.url}${path}`)).status).toBe(401);
      }
    });

    it('does not find a profile tombstoned by its owner’s pending deletion', async () => {
      const owner = (await accounts(first.email))[0] as AccountMatch;
      const deletion = await send(`${api.url}/v1/admin/accounts/${owner.id}/deletion`, {
        method: 'POST',
        headers: operator.admin,
        body: { reason: 'owner asked by email' },
      });
      expect(deletion.status, deletion.text).toBe(202);
      expect(await profiles('kitchen')).toEqual([]);
      expect((await accounts(first.email)).map((account) => account.email)).toEqual([first.email]);
    });
  });
}
