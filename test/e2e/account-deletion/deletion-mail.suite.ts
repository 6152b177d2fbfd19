import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { problemOf, send } from '../../support/http.js';
import { createOperator, type TestOperator } from '../admin/operator-fixture.js';

const PASSWORD = 'correct horse battery';

interface PendingAccount {
  id: string;
  deletion_due_at: string;
}

/** The undo link of the newest deletion mail to `email`, with the whole text it came in. */
async function deletionMailOf(api: ApiHarness, email: string): Promise<{ text: string; undo: URL }> {
  const mails = await eventually(
    () => api.mailTo(email),
    (found) => found.some((mail) => mail.includes('A deletion of your')),
  );
  const text = mails.findLast((mail) => mail.includes('A deletion of your')) ?? '';
  // The last one: a server's mail file holds the HTML part after the text part, and is decoded as a whole.
  const link = [...text.matchAll(/(http[^\s"<]+\/login\?deletion_due=[^\s"<]+)/g)].at(-1)?.[1];
  expect(link, text).toBeDefined();
  return { text, undo: new URL(link ?? '') };
}

/**
 * The deletion request confirmed by email (spec 3; issue 36): whoever asked (the owner, or an operator on their
 * behalf), the owner is mailed the due date and a link that leads to the cancel, which works until then.
 */
export function runDeletionMailSuite(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(`the deletion request mail on ${storage} (spec 3)`, () => {
    let api: ApiHarness;
    let operator: TestOperator;
    beforeAll(async () => {
      api = await startApi(storage);
      operator = await createOperator(api);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const session = (cookie: string) => ({ cookie: `svc_session=${cookie}` });
    const signIn = async (owner: TestAccount): Promise<string> => {
      const login = await send(`${api.url}/v1/auth/login`, {
        method: 'POST',
        body: { email: owner.email, password: PASSWORD },
      });
      expect(login.status).toBe(200);
      return /svc_session=([^;]*)/.exec(login.headers['set-cookie'] ?? '')?.[1] ?? '';
    };
    /** Follows the mail's link as the owner does: the sign-in it names, then the cancel. */
    const cancelFrom = async (owner: TestAccount, undo: URL) => {
      const cookie = await signIn(owner);
      const me = await send(`${api.url}/v1/auth/me`, { headers: session(cookie) });
      expect((me.json as { account: PendingAccount }).account.deletion_due_at).toBe(
        undo.searchParams.get('deletion_due'),
      );
      return send(`${api.url}/v1/auth/me/undelete`, { method: 'POST', headers: session(cookie) });
    };

    it('the owner’s request: the mail names the due date and links to the dashboard’s sign-in, from which the deletion is cancelled', async () => {
      const owner = await createAccount(api);
      const deleted = await send(`${api.url}/v1/auth/me`, {
        method: 'DELETE',
        headers: session(owner.cookie),
      });
      expect(deleted.status).toBe(202);
      const due = (deleted.json as { account: PendingAccount }).account.deletion_due_at;
      const { text, undo } = await deletionMailOf(api, owner.email);
      // The date in words a person reads (UTC, since a mail cannot know the reader's zone), not an ISO stamp.
      const words = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(
        new Date(due),
      );
      expect(text).toContain(words);
      expect(text).toContain('UTC');
      expect(`${undo.origin}${undo.pathname}`).toBe('http://localhost:3000/login');
      expect(undo.searchParams.get('deletion_due')).toBe(due);
      const canceled = await cancelFrom(owner, undo);
      expect(canceled.status).toBe(200);
      expect(canceled.json).toEqual({ status: 'active' });
    });

    it('an operator’s request on the owner’s behalf mails the owner too, quoting the ticket; the link still cancels', async () => {
      const owner = await createAccount(api);
      const me = await send(`${api.url}/v1/auth/me`, { headers: owner.auth });
      const id = (me.json as { account: { id: string } }).account.id;
      const started = await send(`${api.url}/v1/admin/accounts/${id}/deletion`, {
        method: 'POST',
        headers: operator.admin,
        body: { reason: 'owner asked by email', ticket: 'T-9001' },
      });
      expect(started.status, started.text).toBe(202);
      const { text, undo } = await deletionMailOf(api, owner.email);
      expect(text).toContain('Reference: T-9001');
      // The reason is for operators only (spec 4.10): never in the owner's mail.
      expect(text).not.toContain('owner asked by email');
      expect((await api.mailTo(operator.email)).some((mail) => mail.includes('A deletion of your'))).toBe(
        false,
      );
      expect((await cancelFrom(owner, undo)).status).toBe(200);
    });

    it('one mail per request: a second request while one is pending is 409 and mails nothing; after the cancel the link has nothing left to cancel', async () => {
      const owner = await createAccount(api);
      const me = await send(`${api.url}/v1/auth/me`, { headers: owner.auth });
      const id = (me.json as { account: { id: string } }).account.id;
      expect(
        (await send(`${api.url}/v1/auth/me`, { method: 'DELETE', headers: session(owner.cookie) })).status,
      ).toBe(202);
      const { undo } = await deletionMailOf(api, owner.email);
      const again = await send(`${api.url}/v1/admin/accounts/${id}/deletion`, {
        method: 'POST',
        headers: operator.admin,
        body: { reason: 'asked twice' },
      });
      expect(problemOf(again).code).toBe('deletion_pending');
      const mails = (await api.mailTo(owner.email)).filter((mail) => mail.includes('A deletion of your'));
      expect(mails).toHaveLength(1);
      expect((await cancelFrom(owner, undo)).status).toBe(200);
      const cookie = await signIn(owner);
      const stale = await send(`${api.url}/v1/auth/me/undelete`, {
        method: 'POST',
        headers: session(cookie),
      });
      expect(problemOf(stale).code).toBe('no_deletion_pending');
    });
  });
}
