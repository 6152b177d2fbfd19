import { type Mailer, passwordResetMail, verificationMail } from '@svc/domain';
import { openPglite, openPostgresServer, type TestDatabase } from '@svc/testing/engines';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import { startSmtpServer } from '@svc/testing/smtp';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createMailer,
  MemoryMailDispatcher,
  MemoryMailQueue,
  mailRetryDelayMs,
  PostgresMailDispatcher,
  PostgresMailQueueWriter,
} from '../src/index.js';
import {
  FlakyMailer,
  type MailQueueDeps,
  mailClock,
  type OpenTransaction,
  runMailQueueContract,
  type UnsentMail,
} from './contracts/mail-queue.contract.js';

runMailQueueContract('memory', async ({ mailer, clock, log, sendTimeoutMs }: MailQueueDeps) => {
  const queue = new MemoryMailQueue({ now: () => clock.now() });
  const dispatcher = new MemoryMailDispatcher(queue, mailer, { log, sendTimeoutMs });
  return {
    writer: queue.writer(),
    dispatcher,
    otherDispatcher: new MemoryMailDispatcher(queue, mailer, { log, sendTimeoutMs }),
    // What MemoryUnitOfWork does with a participant: snapshot before the run, restore when it fails; the
    // composition root nudges the dispatcher after a run that queued mail commits.
    begin: async (): Promise<OpenTransaction> => {
      const snapshot = queue.snapshot();
      return {
        writer: queue.writer(),
        commit: async () => dispatcher.nudge(),
        rollback: async () => queue.restore(snapshot),
      };
    },
    unsent: async () =>
      queue.list().map((queued) => ({
        to: queued.message.to,
        subject: queued.message.subject,
        attempts: queued.attempts,
        lastError: queued.lastError ?? null,
        givenUp: queued.givenUpAt !== undefined,
      })),
    dispose: async () => dispatcher.stop(),
  };
});

describe(MemoryMailQueue.name, () => {
  it('lists pending messages until they are sent, and drops those of a restored snapshot', async () => {
    const queue = new MemoryMailQueue();
    const mailer = new FlakyMailer();
    const message = { to: 'a@example.test', subject: 'kept', text: 'kept' };
    let counted = 0;
    await queue
      .writer(() => {
        counted += 1;
      })
      .enqueue(message);
    const snapshot = queue.snapshot();
    await queue.writer().enqueue({ to: 'b@example.test', subject: 'dropped', text: 'dropped' });
    expect(queue.pending()).toHaveLength(2);
    queue.restore(snapshot);
    expect(queue.pending()).toEqual([message]);
    expect(counted).toBe(1);
    expect(await new MemoryMailDispatcher(queue, mailer).drain()).toBe(1);
    expect(queue.pending()).toEqual([]);
    expect(mailer.sent).toEqual([message]);
  });
});

/** A raw transaction on one pool client, as PostgresUnitOfWork runs one. */
async function beginOn(pool: pg.Pool): Promise<OpenTransaction> {
  const client = await pool.connect();
  await client.query('BEGIN');
  const end = async (statement: 'COMMIT' | 'ROLLBACK') => {
    try {
      await client.query(statement);
    } finally {
      client.release();
    }
  };
  return {
    writer: new PostgresMailQueueWriter(client),
    commit: () => end('COMMIT'),
    rollback: () => end('ROLLBACK'),
  };
}

async function unsentRows(pool: pg.Pool): Promise<UnsentMail[]> {
  const rows = await pool.query<{
    recipient: string;
    subject: string;
    attempts: number;
    last_error: string | null;
    given_up: boolean;
  }>(
    `SELECT recipient, subject, attempts, last_error, given_up_at IS NOT NULL AS given_up
       FROM mail_queue WHERE sent_at IS NULL ORDER BY id`,
  );
  return rows.rows.map((row) => ({
    to: row.recipient,
    subject: row.subject,
    attempts: row.attempts,
    lastError: row.last_error,
    givenUp: row.given_up,
  }));
}

const onEngine =
  (open: () => Promise<TestDatabase>) =>
  async ({ mailer, clock, log, sendTimeoutMs }: MailQueueDeps) => {
    const engine = await open();
    const { pool } = engine.database;
    return {
      writer: new PostgresMailQueueWriter(pool),
      dispatcher: new PostgresMailDispatcher(pool, mailer, { now: () => clock.now(), log, sendTimeoutMs }),
      otherDispatcher: new PostgresMailDispatcher(pool, mailer, {
        now: () => clock.now(),
        log,
        sendTimeoutMs,
      }),
      begin: () => beginOn(pool),
      unsent: () => unsentRows(pool),
      dispose: engine.dispose,
    };
  };

// PGlite runs one transaction at a time: a dispatcher waits for an open transaction instead of reading past it.
runMailQueueContract('PGlite', onEngine(openPglite), { transactionsBlockReaders: true });
runMailQueueContract('PostgreSQL server', onEngine(openPostgresServer), {
  skip: postgresServerSkipReason !== undefined,
});

describe(mailRetryDelayMs.name, () => {
  it('waits 5 s after the first failure, doubling, at most an hour', () => {
    expect([1, 2, 3, 4, 10, 11, 19].map(mailRetryDelayMs)).toEqual([
      5_000, 10_000, 20_000, 40_000, 2_560_000, 3_600_000, 3_600_000,
    ]);
  });
});

/** Restart safety: a claim whose dispatcher died is taken over once its lease expired. */
function describeLeaseExpiry(engineName: string, open: () => Promise<TestDatabase>, skip = false): void {
  describe.skipIf(skip)(`${PostgresMailDispatcher.name} on ${engineName}`, () => {
    let engine: TestDatabase;
    beforeAll(async () => {
      engine = await open();
    }, 60_000);
    afterAll(async () => engine.dispose());

    it('sends again a message whose dispatcher stopped mid-send, once its lease expired', async () => {
      const { pool } = engine.database;
      const clock = mailClock();
      let finishStuckSend: (() => void) | undefined;
      const stalled: Mailer = {
        send: () =>
          new Promise<void>((resolve) => {
            finishStuckSend = resolve;
          }),
      };
      await new PostgresMailQueueWriter(pool).enqueue(verificationMail('owner@example.test', 'https://d/v'));
      const interrupted = new PostgresMailDispatcher(pool, stalled, { now: () => clock.now() }).drain();
      await vi.waitFor(() => expect(finishStuckSend).toBeDefined());

      const mailer = new FlakyMailer();
      const restarted = new PostgresMailDispatcher(pool, mailer, { now: () => clock.now() });
      expect(await restarted.drain()).toBe(0);
      clock.advance(5 * 60 * 1000);
      expect(await restarted.drain()).toBe(1);
      expect(mailer.sent.map((message) => message.to)).toEqual(['owner@example.test']);

      finishStuckSend?.();
      await interrupted;
      expect(await restarted.drain()).toBe(0);
    });
  });
}

describeLeaseExpiry('PGlite', openPglite);
describeLeaseExpiry('PostgreSQL server', openPostgresServer, postgresServerSkipReason !== undefined);

/** Undoes quoted-printable soft breaks and escapes (nodemailer's encoding of long or non-ASCII lines). */
function decodeQuotedPrintable(data: string): string {
  const bytes = data
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The text and HTML parts of a multipart/alternative message, decoded. */
function parts(data: string): { text: string; html: string } {
  const decoded = decodeQuotedPrintable(data);
  const textStart = decoded.indexOf('Content-Type: text/plain');
  const htmlStart = decoded.indexOf('Content-Type: text/html');
  expect(textStart).toBeGreaterThan(0);
  expect(htmlStart).toBeGreaterThan(textStart);
  return { text: decoded.slice(textStart, htmlStart), html: decoded.slice(htmlStart) };
}

describe('mail queue over SMTP (PGlite, smtp-server)', () => {
  let engine: TestDatabase;
  beforeAll(async () => {
    engine = await openPglite();
  }, 60_000);
  afterAll(async () => engine.dispose());

  const smtpMailer = (port: number) =>
    createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, dataDir: '/unused', log: () => undefined });

  it('delivers a queued message with its recipient, subject, text and HTML parts', async () => {
    const smtp = await startSmtpServer();
    try {
      const { pool } = engine.database;
      const link = 'https://dash.example.test/verify-email?token=ver_0123456789abcdefghijklmnopqrstuvwxyz';
      const dispatcher = new PostgresMailDispatcher(pool, smtpMailer(smtp.port), { log: () => undefined });
      await new PostgresMailQueueWriter(pool).enqueue(verificationMail('owner@example.test', link));
      expect(await dispatcher.drain()).toBe(1);
      expect(smtp.received).toHaveLength(1);
      const [message] = smtp.received;
      expect(message?.to).toEqual(['owner@example.test']);
      expect(message?.data).toMatch(/^To: owner@example\.test\r$/m);
      expect(message?.data).toMatch(/^Subject: Verify your email address for svc\r$/m);
      expect(message?.data).toMatch(/^Content-Type: multipart\/alternative;/m);
      const { text, html } = parts(message?.data ?? '');
      expect(text).toContain(`\n${link}\r\n`);
      expect(text).not.toContain('<a ');
      expect(html).toContain(`<a href="${link}">Verify email address</a>`);
      expect(await dispatcher.drain()).toBe(0);
    } finally {
      await smtp.close();
    }
  });

  it('queues while the SMTP server is down, and delivers once it is back and the backoff elapsed', async () => {
    const { pool } = engine.database;
    const probe = await startSmtpServer();
    const port = probe.port;
    await probe.close();
    const clock = mailClock();
    const lines: string[] = [];
    const dispatcher = new PostgresMailDispatcher(pool, smtpMailer(port), {
      now: () => clock.now(),
      log: (line) => lines.push(line),
    });

    // The request side only writes a row: it succeeds with no SMTP server at all.
    await new PostgresMailQueueWriter(pool).enqueue(
      passwordResetMail('down@example.test', 'https://dash.example.test/reset-password?token=rst_x'),
    );
    expect(await dispatcher.drain()).toBe(0);
    const [unsent] = await unsentRows(pool);
    expect(unsent).toMatchObject({ to: 'down@example.test', attempts: 1, givenUp: false });
    expect(unsent?.lastError).toMatch(/ECONNREFUSED/);
    expect(lines).toEqual([expect.stringContaining('to down@example.test failed (attempt 1 of 20)')]);

    const smtp = await startSmtpServer(port);
    try {
      expect(await dispatcher.drain()).toBe(0);
      clock.advance(5_000);
      expect(await dispatcher.drain()).toBe(1);
      expect(smtp.received.map((message) => message.to)).toEqual([['down@example.test']]);
      expect(smtp.received[0]?.data).toMatch(/^Subject: Reset your svc password\r$/m);
      expect(await unsentRows(pool)).toEqual([]);
      clock.advance(60 * 60 * 1000);
      expect(await dispatcher.drain()).toBe(0);
      expect(smtp.received).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });
});
