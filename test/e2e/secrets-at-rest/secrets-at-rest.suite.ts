import type { PostgresDatabase } from '@svc/adapters';
import { MailDispatcher } from '@svc/domain';
import { PostgresToken } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, eventually, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';

/**
 * Any secret the API shows once: an API token, a node enrolment code, an emailed single-use link. Each starts
 * where a token can start (after a quote, a space, `=`, quoted-printable's `=3D` or `/`), not inside a sealed value's base64url, where a
 * run such as `rec_` followed by twenty characters turns up by chance.
 */
const SECRET_SHAPES = [
  /(?:(?<![A-Za-z0-9_.-])|(?<==3D))svc_[A-Za-z0-9]{52}/,
  /(?:(?<![A-Za-z0-9_.-])|(?<==3D))svcenrol_[A-Za-z0-9_-]{43}/,
  /(?:(?<![A-Za-z0-9_.-])|(?<==3D))(?:rst|ver|rec|wl)_[A-Za-z0-9_-]{20,}/,
];

/**
 * Secrets kept at rest (issue 27, findings 4 and 5): the idempotency store and the mail queue, read straight
 * from their tables, hold no secret in clear, while a replay still answers the client that lost the first
 * answer exactly what that answer held, and nothing else.
 */
export function runSecretsAtRestSuite(
  storage: 'pglite' | 'postgres',
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`secrets at rest on ${storage} (issue 27)`, () => {
    let api: ApiHarness;
    let owner: TestAccount;
    beforeAll(async () => {
      api = await startApi(storage);
      owner = await createAccount(api);
    }, 60_000);
    afterAll(async () => {
      await api?.close();
    });

    const query = async <Row extends object>(sql: string, values: unknown[] = []): Promise<Row[]> => {
      const { pool } = await api.container.getAsync<PostgresDatabase>(PostgresToken);
      return (await pool.query<Row>(sql, values)).rows;
    };
    const storedResponse = async (key: string): Promise<string> => {
      const rows = await query<{ response: string }>(
        'SELECT response::text AS response FROM idempotency_keys WHERE key = $1',
        [key],
      );
      expect(rows).toHaveLength(1);
      return rows[0]?.response ?? '';
    };
    const expectNoSecret = (text: string) => {
      for (const shape of SECRET_SHAPES) expect(text).not.toMatch(shape);
    };

    it('stores a token creation sealed; its replay answers the secret of the first answer, and no other', async () => {
      const key = `token-${Math.random().toString(36).slice(2)}`;
      const post = () =>
        send(`${api.url}/v1/tokens`, {
          method: 'POST',
          headers: { cookie: `svc_session=${owner.cookie}`, 'idempotency-key': key },
          body: { name: 'deploy', scopes: ['profiles:read'] },
        });
      const first = await post();
      expect(first.status).toBe(201);
      const { secret, token } = first.json as { secret: string; token: { id: string } };
      const stored = await storedResponse(key);
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(secret.slice('svc_'.length));
      expectNoSecret(stored);

      const replay = await post();
      expect(replay.status).toBe(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json).toEqual(first.json);
      expect(replay.headers.location).toBe(`/v1/tokens/${token.id}`);
      const listed = await send(`${api.url}/v1/tokens?limit=200`, { headers: owner.auth });
      expect(
        (listed.json as { tokens: { name: string }[] }).tokens.filter((t) => t.name === 'deploy'),
      ).toHaveLength(1);
    });

    it('stores a node creation sealed; its replay answers the enrolment code of the first answer', async () => {
      const profile = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
      const profileId = (profile.json as { id: string }).id;
      const key = `node-${Math.random().toString(36).slice(2)}`;
      const post = () =>
        send(`${api.url}/v1/profiles/${profileId}/nodes`, {
          method: 'POST',
          headers: { ...owner.auth, 'idempotency-key': key },
          body: { name: 'rack' },
        });
      const first = await post();
      expect(first.status).toBe(201);
      const code = (first.json as { enrolment_code: string }).enrolment_code;
      expect(code).toMatch(/^svcenrol_/);
      const stored = await storedResponse(key);
      expect(stored).not.toContain(code);
      expectNoSecret(stored);
      const replay = await post();
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json).toEqual(first.json);
    });

    it('holds no secret in clear in any stored response', async () => {
      const rows = await query<{ response: string | null }>(
        'SELECT response::text AS response FROM idempotency_keys',
      );
      expect(rows.length).toBeGreaterThanOrEqual(2);
      for (const row of rows) expectNoSecret(row.response ?? '');
    });

    it('clears the body of a message once it is sent; the mailbox still got the link', async () => {
      expect(
        (await send(`${api.url}/v1/auth/password/reset`, { method: 'POST', body: { email: owner.email } }))
          .status,
      ).toBe(202);
      await (await api.container.getAsync<MailDispatcher>(MailDispatcher)).drain();
      const delivered = await eventually(
        () => api.mailTo(owner.email),
        (mails) => mails.some((mail) => /rst_/.test(mail)),
      );
      expect(delivered.some((mail) => /reset-password\?token=rst_/.test(mail))).toBe(true);
      const rows = await query<{ sent: boolean; text_body: string; html_body: string | null; row: string }>(
        `SELECT sent_at IS NOT NULL AS sent, text_body, html_body, row_to_json(m)::text AS row
           FROM mail_queue m WHERE recipient = $1`,
        [owner.email],
      );
      expect(rows.length).toBeGreaterThanOrEqual(2);
      for (const row of rows) {
        expect(row.sent).toBe(true);
        expect(row.text_body).toBe('');
        expect(row.html_body).toBeNull();
        expectNoSecret(row.row);
      }
    });
  });
}
