import type { PostgresDatabase } from '@svc/adapters';
import { PostgresToken } from '@svc/http-server';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { startSmtpServer, type TestSmtpServer } from '@svc/testing/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, eventually, startApi } from '../support/api-harness.js';
import { send } from '../support/http.js';
import { freePort } from '../support/private-engines.js';

/**
 * Issue 10, faults: the SMTP server is down when an account signs up. The signup is still accepted, its
 * verification mail waits in the mail queue with the failure recorded, and once an SMTP server listens on the
 * configured address the queue delivers it (first retry 5 s after the failed attempt), with a link that works.
 */
if (postgresServerSkipReason !== undefined)
  console.warn(`SMTP outage fault test skipped: ${postgresServerSkipReason}`);

interface QueuedMail {
  recipient: string;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
}

describe.skipIf(postgresServerSkipReason !== undefined)('SMTP server down when mail is sent', () => {
  let api: ApiHarness;
  let smtpPort: number;
  let smtp: TestSmtpServer | undefined;

  beforeAll(async () => {
    smtpPort = await freePort();
    api = await startApi('postgres', { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
  });

  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  it('queues the verification mail while SMTP is down and delivers it once SMTP is up', async () => {
    const email = 'smtp-outage@example.test';
    const signup = await send(`${api.url}/v1/auth/signup`, {
      method: 'POST',
      body: { email, password: 'correct horse battery' },
    });
    expect(signup.status).toBe(202);

    const { pool } = await api.container.getAsync<PostgresDatabase>(PostgresToken);
    const queued = async () =>
      (
        await pool.query<QueuedMail>(
          'SELECT recipient, attempts, last_error, sent_at FROM mail_queue WHERE recipient = $1',
          [email],
        )
      ).rows;
    const failed = await eventually(queued, (rows) => (rows[0]?.last_error ?? null) !== null, 10_000);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.sent_at).toBeNull();
    expect(failed[0]?.last_error).toMatch(/ECONNREFUSED/);

    smtp = await startSmtpServer(smtpPort);
    const server = smtp;
    const delivered = await eventually(
      async () => server.received.filter((message) => message.to.includes(email)),
      (messages) => messages.length > 0,
      30_000,
    );
    expect(delivered).toHaveLength(1);
    const sent = await eventually(queued, (rows) => rows[0]?.sent_at !== null);
    expect(sent[0]?.sent_at).not.toBeNull();

    const body = (delivered[0]?.data ?? '').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(body)?.[1];
    expect(token).toBeDefined();
    const verified = await send(`${api.url}/v1/auth/verify`, { method: 'POST', body: { token } });
    expect(verified.status).toBe(200);
    console.info(
      `SMTP outage: the verification mail failed ${failed[0]?.attempts} time(s) and was delivered after ` +
        `${sent[0]?.attempts} attempt(s) once SMTP was up`,
    );
  }, 60_000);
});
