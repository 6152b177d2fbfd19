import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { expectProblem } from '../../support/problems.js';
import { accountWithProfile, createProfile as createProfileAs } from '../../support/profiles.js';

/** The deployment's caps on linked addresses per profile and per account (issue 27). */
export function runLinkedIpsCapsSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `linked IPs within the deployment's caps on ${storage} (issue 27)`,
    () => {
      let api: ApiHarness;
      let owner: TestAccount;
      beforeAll(async () => {
        api = await startApi(storage, { SVC_LINKED_IPS_PER_PROFILE: '2', SVC_LINKED_IPS_PER_ACCOUNT: '3' });
        owner = await createAccount(api);
      }, 60_000);
      afterAll(async () => {
        await api?.close();
      });

      const createProfile = (): Promise<string> => createProfileAs(api, owner);
      const link = (profileId: string, body: object) =>
        send(`${api.url}/v1/profiles/${profileId}/linked-ips`, { method: 'POST', headers: owner.auth, body });

      it('caps links per profile and per account (DDNS slots count), 422 too_many_linked_ips beyond', async () => {
        const first = await createProfile();
        const second = await createProfile();
        expect((await link(first, { ip: '198.51.100.1' })).status).toBe(201);
        const slot = await link(first, { ddns: true });
        expect(slot.status).toBe(201);
        const overProfile = await link(first, { ip: '198.51.100.2' });
        expectProblem(overProfile, 422, 'too_many_linked_ips');
        expect(problemOf(overProfile).detail).toMatch(/at most 2 per profile/);
        expect((await link(second, { ip: '198.51.100.3' })).status).toBe(201);
        const overAccount = await link(second, { ddns: true });
        expectProblem(overAccount, 422, 'too_many_linked_ips');
        expect(problemOf(overAccount).detail).toMatch(/at most 3 per account/);

        const slotId = (slot.json as { id: string }).id;
        const removed = await send(`${api.url}/v1/profiles/${first}/linked-ips/${slotId}`, {
          method: 'DELETE',
          headers: owner.auth,
        });
        expect(removed.status).toBe(204);
        expect((await link(second, { ip: '198.51.100.4' })).status).toBe(201);
      });

      it('holds the account cap against concurrent links on several profiles', async () => {
        const other = await createAccount(api);
        const profiles = await Promise.all(
          [1, 2, 3].map(async () => {
            const answer = await send(`${api.url}/v1/profiles`, {
              method: 'POST',
              headers: other.auth,
              body: {},
            });
            return (answer.json as { id: string }).id;
          }),
        );
        const answers = await Promise.all(
          Array.from({ length: 9 }, (_, index) =>
            send(`${api.url}/v1/profiles/${profiles[index % 3]}/linked-ips`, {
              method: 'POST',
              headers: other.auth,
              body: { ip: `198.51.100.${100 + index}` },
            }),
          ),
        );
        const statuses = answers.map((answer) => answer.status);
        expect(statuses.filter((status) => status === 201)).toHaveLength(3);
        for (const answer of answers.filter((candidate) => candidate.status !== 201)) {
          expectProblem(answer, 422, 'too_many_linked_ips');
        }
      });

      it('proves nothing by a forged X-Forwarded-For from a peer that is no trusted proxy (issue 35)', async () => {
        const { account: someone, profileId } = await accountWithProfile(api);
        const answer = await send(`${api.url}/v1/profiles/${profileId}/linked-ips`, {
          method: 'POST',
          headers: { ...someone.auth, 'x-forwarded-for': '192.0.2.99' },
          body: { ip: '192.0.2.99' },
        });
        expect(answer.status).toBe(201);
        expect((answer.json as { state: string }).state).toBe('pending');
      });

      it('refuses documentation addresses (RFC 5737) outside development, where examples use them', async () => {
        const production = await startApi('memory', { SVC_ENV: 'production', SVC_SIGNUP_MODE: 'open' });
        try {
          const { account, profileId } = await accountWithProfile(production);
          for (const ip of ['192.0.2.7', '198.51.100.7', '203.0.113.7']) {
            const answer = await send(`${production.url}/v1/profiles/${profileId}/linked-ips`, {
              method: 'POST',
              headers: account.auth,
              body: { ip },
            });
            expectProblem(answer, 422, 'validation_failed');
            const errors = problemOf(answer).errors as { field: string; message: string }[];
            expect(errors).toEqual([
              { field: 'ip', message: expect.stringMatching(/documentation \(RFC 5737\)/) },
            ]);
          }
          const publicAddress = await send(`${production.url}/v1/profiles/${profileId}/linked-ips`, {
            method: 'POST',
            headers: account.auth,
            body: { ip: '9.9.9.9' },
          });
          expect(publicAddress.status).toBe(201);
        } finally {
          await production.close();
        }
      });
    },
  );
}
