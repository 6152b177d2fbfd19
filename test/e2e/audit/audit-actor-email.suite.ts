import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { accountWithProfile } from '../../support/profiles.js';
import { createOperator, type TestOperator } from '../admin/operator-fixture.js';

interface Entry {
  actor: string;
  actor_email: string | null;
  action: string;
  target: string;
}

/**
 * The audit log names its actors by email (issue 36): `actor_email` is resolved when the log is read, for
 * sessions and API tokens alike, and only within the organisation whose log it is (spec 6.2; tenant isolation).
 */
export function runAuditActorEmailSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`audit entries' actor_email on ${storage} (spec 6.2)`, () => {
    let api: ApiHarness;
    let operator: TestOperator;
    beforeAll(async () => {
      api = await startApi(storage);
      operator = await createOperator(api);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const entries = async (who: Record<string, string>, path = '/v1/auth/audit'): Promise<Entry[]> => {
      const answer = await send(`${api.url}${path}`, { headers: who });
      expect(answer.status, answer.text).toBe(200);
      return (answer.json as { entries: Entry[] }).entries;
    };
    const accountIdOf = async (who: TestAccount): Promise<string> =>
      ((await send(`${api.url}/v1/auth/me`, { headers: who.auth })).json as { account: { id: string } })
        .account.id;

    it('a session’s and a token’s changes name the owner’s email beside the raw actor', async () => {
      const owner = await createAccount(api);
      const created = await send(`${api.url}/v1/profiles`, {
        method: 'POST',
        headers: owner.auth,
        body: { name: 'Home' },
      });
      const profileId = (created.json as { id: string }).id;
      expect(
        (await send(`${api.url}/v1/profiles/${profileId}`, { method: 'DELETE', headers: owner.auth })).status,
      ).toBe(204);
      const log = await entries(owner.auth);
      const deleted = log.find((entry) => entry.action === 'profile.deleted');
      expect(deleted?.actor).toMatch(/^token:/);
      expect(deleted?.actor_email).toBe(owner.email);
      const tokenCreated = log.find((entry) => entry.action === 'token.created');
      expect(tokenCreated?.actor).toMatch(/^account:/);
      expect(tokenCreated?.actor_email).toBe(owner.email);
    });

    it('an operator acting on an organisation is not named in that organisation’s log, but is in the operators’ view', async () => {
      const owner = await createAccount(api);
      const id = await accountIdOf(owner);
      const deletion = `${api.url}/v1/admin/accounts/${id}/deletion`;
      expect(
        (await send(deletion, { method: 'POST', headers: operator.admin, body: { reason: 'asked' } })).status,
      ).toBe(202);
      expect(
        (await send(deletion, { method: 'DELETE', headers: operator.admin, body: { ticket: 'T-1' } })).status,
      ).toBe(200);
      const login = await send(`${api.url}/v1/auth/login`, {
        method: 'POST',
        body: { email: owner.email, password: 'correct horse battery' },
      });
      const cookie = /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1] ?? '';
      const own = await entries(
        { cookie: `svc_session=${cookie}` },
        '/v1/auth/audit?action=account.deletion_canceled',
      );
      expect(own).toHaveLength(1);
      expect(own[0]?.actor).toMatch(/^token:/);
      expect(own[0]?.actor_email).toBeNull();
      expect(JSON.stringify(own)).not.toContain(operator.email);
      const admin = await entries(operator.admin, '/v1/admin/audit?action=admin.deletion_requested');
      const requested = admin.find((entry) => entry.target === `accounts/${id}`);
      expect(requested?.actor_email).toBe(operator.email);
    });

    it('a node’s own changes have no email', async () => {
      const { account: owner, profileId } = await accountWithProfile(api);
      const node = await send(`${api.url}/v1/profiles/${profileId}/nodes`, {
        method: 'POST',
        headers: owner.auth,
        body: { name: 'edge' },
      });
      expect(node.status, node.text).toBe(201);
      const enrolment = node.json as { enrolment_code: string };
      const enrolled = await send(`${api.url}/v1/nodes/enrol`, {
        method: 'POST',
        body: { enrolment_code: enrolment.enrolment_code },
      });
      expect(enrolled.status, enrolled.text).toBe(201);
      const log = await entries(owner.auth);
      const byNode = log.find((entry) => entry.actor.startsWith('node:'));
      expect(byNode?.action).toBe('node.enrolled');
      expect(byNode?.actor_email).toBeNull();
    });
  });
}
