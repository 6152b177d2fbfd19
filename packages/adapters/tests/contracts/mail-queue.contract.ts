import type { MailDispatcher, Mailer, MailMessage, MailQueueWriter } from '@svc/domain';
import { ManualClock } from '@svc/testing/clock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * A mailer that records what it sends and can be told to fail the next sends, as an SMTP outage would, or to
 * never answer them, as a stalled SMTP server would.
 */
export class FlakyMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  private failures = 0;
  private stalls = 0;

  failNext(count: number): void {
    this.failures = count;
  }

  stallNext(count: number): void {
    this.stalls = count;
  }

  async send(message: MailMessage): Promise<void> {
    if (this.stalls > 0) {
      this.stalls -= 1;
      return new Promise<void>(() => undefined);
    }
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('smtp unavailable');
    }
    this.sent.push({ ...message });
  }
}

/**
 * The clock of the mail queue suites, moved by hand so that a backoff elapses without waiting. It starts an hour
 * ahead of real time: rows the database stamps with its own now() while the suite runs are due by this clock.
 */
export const mailClock = (): ManualClock => new ManualClock(new Date(Date.now() + 60 * 60 * 1000));

/** A transaction (a unit of work's run) with a mail writer in it. */
export interface OpenTransaction {
  writer: MailQueueWriter;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** A message not sent, as the queue's store shows it. */
export interface UnsentMail {
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  givenUp: boolean;
}

/** One implementation of the mail queue under test: a writer and two dispatchers (two servers) on one store. */
export interface MailQueueUnderTest {
  writer: MailQueueWriter;
  dispatcher: MailDispatcher;
  otherDispatcher: MailDispatcher;
  begin(): Promise<OpenTransaction>;
  unsent(): Promise<UnsentMail[]>;
  dispose(): Promise<void>;
}

/**
 * What each implementation is built from: the mailer both dispatchers send through, their clock, their log and
 * how long they wait for a send.
 */
export interface MailQueueDeps {
  mailer: FlakyMailer;
  clock: ManualClock;
  log: (line: string) => void;
  sendTimeoutMs: number;
}

/** Short, so that a stalled send fails within the test; long enough for a send that answers at once. */
const SEND_TIMEOUT_MS = 250;

const mail = (n: number | string): MailMessage => ({
  to: `owner${n}@example.test`,
  subject: `message ${n}`,
  text: `Open https://dash.example.test/verify-email?token=ver_${n}`,
  html: `<p><a href="https://dash.example.test/verify-email?token=ver_${n}">Verify</a></p>`,
});

/** The durable mail queue's guarantees; run against each implementation. */
export function runMailQueueContract(
  name: string,
  make: (deps: MailQueueDeps) => Promise<MailQueueUnderTest>,
  options: { skip?: boolean; transactionsBlockReaders?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`mail queue contract: ${name}`, () => {
    const mailer = new FlakyMailer();
    const clock = mailClock();
    const lines: string[] = [];
    let sut: MailQueueUnderTest;

    beforeAll(async () => {
      sut = await make({ mailer, clock, log: (line) => lines.push(line), sendTimeoutMs: SEND_TIMEOUT_MS });
    }, 60_000);
    afterAll(async () => sut.dispose());
    beforeEach(async () => {
      mailer.failNext(0);
      mailer.stallNext(0);
      await sut.dispatcher.drain();
      mailer.sent.length = 0;
      lines.length = 0;
    });

    const subjects = () => mailer.sent.map((message) => message.subject);
    /** Unsent messages still to be tried (earlier tests leave a given-up one behind). */
    const pending = async () => (await sut.unsent()).filter((unsent) => !unsent.givenUp);

    it('sends enqueued messages once, text and HTML as enqueued', async () => {
      await sut.writer.enqueue(mail(1));
      await sut.writer.enqueue({ to: 'plain@example.test', subject: 'plain', text: 'text only' });
      expect(await sut.dispatcher.drain()).toBe(2);
      expect(mailer.sent).toEqual([
        mail(1),
        { to: 'plain@example.test', subject: 'plain', text: 'text only' },
      ]);
      expect(await sut.dispatcher.drain()).toBe(0);
      expect(await pending()).toEqual([]);
    });

    it('keeps a message whose send failed, counting the attempt, and sends it once the backoff elapsed', async () => {
      mailer.failNext(1);
      await sut.writer.enqueue(mail('retried'));
      expect(await sut.dispatcher.drain()).toBe(0);
      expect(await pending()).toEqual([
        {
          to: 'ownerretried@example.test',
          subject: 'message retried',
          attempts: 1,
          lastError: 'smtp unavailable',
          givenUp: false,
        },
      ]);
      expect(lines).toEqual([
        expect.stringMatching(/failed \(attempt 1 of 20\), retrying in 5 s: smtp unavailable/),
      ]);
      clock.advance(4_999);
      expect(await sut.dispatcher.drain()).toBe(0);
      clock.advance(1);
      expect(await sut.dispatcher.drain()).toBe(1);
      expect(subjects()).toEqual(['message retried']);
      expect(await pending()).toEqual([]);
    });

    it('counts a send that does not answer within the time-out as a failed attempt, and retries it', async () => {
      mailer.stallNext(1);
      await sut.writer.enqueue(mail('stalled'));
      const started = Date.now();
      expect(await sut.dispatcher.drain()).toBe(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(SEND_TIMEOUT_MS - 10);
      expect(await pending()).toEqual([
        expect.objectContaining({
          subject: 'message stalled',
          attempts: 1,
          lastError: 'the mailer did not answer within 0.25 s',
        }),
      ]);
      expect(lines).toEqual([
        expect.stringMatching(/failed \(attempt 1 of 20\), retrying in 5 s: the mailer/),
      ]);
      clock.advance(5_000);
      expect(await sut.dispatcher.drain()).toBe(1);
      expect(subjects()).toEqual(['message stalled']);
    });

    it('doubles the wait after each failed attempt', async () => {
      mailer.failNext(2);
      await sut.writer.enqueue(mail('twice'));
      expect(await sut.dispatcher.drain()).toBe(0);
      clock.advance(5_000);
      expect(await sut.dispatcher.drain()).toBe(0);
      expect((await pending()).map((unsent) => unsent.attempts)).toEqual([2]);
      clock.advance(9_999);
      expect(await sut.dispatcher.drain()).toBe(0);
      clock.advance(1);
      expect(await sut.dispatcher.drain()).toBe(1);
      expect(subjects()).toEqual(['message twice']);
    });

    it('gives up after 20 failed attempts, says so in the log, and sends it no more', async () => {
      mailer.failNext(20);
      await sut.writer.enqueue(mail('lost'));
      for (let attempt = 1; attempt <= 20; attempt += 1) {
        expect(await sut.dispatcher.drain()).toBe(0);
        clock.advance(60 * 60 * 1000);
      }
      expect((await sut.unsent()).filter((unsent) => unsent.subject === 'message lost')).toEqual([
        expect.objectContaining({ attempts: 20, givenUp: true }),
      ]);
      expect(await pending()).toEqual([]);
      expect(lines.at(-1)).toMatch(/^mail \S+ to ownerlost@example\.test given up after 20 attempts: smtp/);
      clock.advance(60 * 60 * 1000);
      expect(await sut.dispatcher.drain()).toBe(0);
      expect(mailer.sent).toEqual([]);
    });

    it('never sends a message of a transaction that rolls back', async () => {
      const tx = await sut.begin();
      await tx.writer.enqueue(mail('rolled back'));
      await tx.rollback();
      expect(await sut.dispatcher.drain()).toBe(0);
      expect(await pending()).toEqual([]);
      expect(mailer.sent).toEqual([]);
    });

    it.skipIf(options.transactionsBlockReaders === true)(
      'sends a message of an open transaction only after it commits',
      async () => {
        const tx = await sut.begin();
        await tx.writer.enqueue(mail('committed'));
        expect(await sut.dispatcher.drain()).toBe(0);
        await tx.commit();
        await sut.dispatcher.drain();
        expect(subjects()).toEqual(['message committed']);
      },
    );

    it('sends each message once when two dispatchers drain at the same time', async () => {
      for (let n = 0; n < 30; n += 1) await sut.writer.enqueue(mail(n));
      await Promise.all([
        sut.dispatcher.drain(),
        sut.otherDispatcher.drain(),
        sut.dispatcher.drain(),
        sut.otherDispatcher.drain(),
      ]);
      await sut.dispatcher.drain();
      expect(subjects().sort()).toEqual(Array.from({ length: 30 }, (_, n) => `message ${n}`).sort());
      expect(await pending()).toEqual([]);
    });
  });
}
