import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Mailer, MailMessage } from '@svc/domain';
import type { Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type StreamTransport from 'nodemailer/lib/stream-transport';

/** The sender of every message unless configured. */
const DEFAULT_MAIL_FROM = 'svc <no-reply@svc.invalid>';

/**
 * nodemailer and its MIME modules load with the first message, not with the server: most of the time a
 * server sends no mail, and an idle server should not hold them (docs/adr/0009-lazy-engines-and-modules.md).
 */
function lazyTransport<T>(create: (mailer: typeof import('nodemailer')) => T): () => Promise<T> {
  let transport: Promise<T> | undefined;
  return () => {
    transport ??= import('nodemailer').then((loaded) => create(loaded));
    return transport;
  };
}

/** The longest line RFC 5322 allows, without its CRLF. */
const MAX_LINE_OCTETS = 998;

/**
 * The plain-text part as nodemailer should write it. nodemailer encodes any text with a line longer than 76
 * characters as quoted-printable, which breaks an emailed link across lines (`=` soft breaks) and turns its
 * `token=` into `token=3D`: a person reading the message source (the outbox folder's .eml) cannot copy the
 * link, and some clients mangle it. ASCII text whose lines fit RFC 5322's limit is valid MIME as 7bit, so it
 * goes as a prepared part, unencoded; any other text keeps nodemailer's choice.
 */
function plainTextPart(text: string): string | Mail.Attachment {
  const ascii = /^[\t\n\r\x20-\x7e]*$/.test(text);
  const fits = text.split(/\r?\n/).every((line) => Buffer.byteLength(line) <= MAX_LINE_OCTETS);
  if (!ascii || !fits) return text;
  return {
    raw: `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\n${text.replace(/\r?\n/g, '\r\n')}`,
  };
}

/**
 * The message nodemailer composes from a domain message. A prepared part stands for a whole MIME node, which
 * is the message itself when the text is its only part: only a text beside an HTML part is prepared.
 */
function composed(from: string, message: MailMessage): Mail.Options {
  if (message.html === undefined) return { from, ...message };
  return { from, ...message, text: plainTextPart(message.text) };
}

/** Sends over SMTP (SMTP_URL) with nodemailer. */
export class SmtpMailer implements Mailer {
  private readonly transport: () => Promise<Transporter<SMTPTransport.SentMessageInfo>>;

  constructor(
    smtpUrl: string,
    private readonly from: string = DEFAULT_MAIL_FROM,
  ) {
    this.transport = lazyTransport((mailer) => mailer.createTransport(smtpUrl));
  }

  async send(message: MailMessage): Promise<void> {
    await (await this.transport()).sendMail(composed(this.from, message));
  }
}

/** A sortable timestamp for file names: 20261122T161500123Z. */
function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('.', '');
}

/**
 * The outbox folder of RUNNER.md: every message becomes one RFC 5322 file `<dataDir>/mail/<timestamp>-<id>.eml`
 * (composed by nodemailer, as SMTP would send it) and one log line naming recipient and subject.
 */
export class OutboxFolderMailer implements Mailer {
  private readonly composer: () => Promise<Transporter<StreamTransport.SentMessageInfo>>;
  readonly folder: string;

  constructor(
    dataDir: string,
    private readonly log: (line: string) => void,
    private readonly from: string = DEFAULT_MAIL_FROM,
  ) {
    this.folder = join(dataDir, 'mail');
    this.composer = lazyTransport((mailer) =>
      mailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }),
    );
  }

  async send(message: MailMessage): Promise<void> {
    const sent = await (await this.composer()).sendMail(composed(this.from, message));
    if (!Buffer.isBuffer(sent.message))
      throw new Error('nodemailer did not compose the message into a buffer');
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const name = `${fileTimestamp(new Date())}-${randomBytes(6).toString('hex')}.eml`;
    await writeFile(join(this.folder, name), sent.message, { mode: 0o600 });
    this.log(`mail to ${message.to}: ${message.subject} (${join(this.folder, name)})`);
  }
}

/** The mailer the settings choose: SMTP with SMTP_URL, else the outbox folder. */
export function createMailer(options: {
  smtpUrl?: string | undefined;
  dataDir: string;
  log: (line: string) => void;
  from?: string;
}): Mailer {
  if (options.smtpUrl !== undefined) return new SmtpMailer(options.smtpUrl, options.from);
  return new OutboxFolderMailer(options.dataDir, options.log, options.from);
}
