import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { passwordResetMail, verificationMail } from '@svc/domain';
import { startSmtpServer, type TestSmtpServer } from '@svc/testing/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, MemoryMailer, OutboxFolderMailer, SmtpMailer } from '../src/index.js';

const message = {
  to: 'owner@example.test',
  subject: 'Verify your address',
  text: 'Open https://dash.example.test/verify-email?token=ver_abc to verify.',
};

describe(OutboxFolderMailer.name, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-mail-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes one RFC 5322 file per message and logs recipient and subject', async () => {
    const lines: string[] = [];
    const sut = new OutboxFolderMailer(dataDir, (line) => lines.push(line));
    await sut.send(message);
    await sut.send({ ...message, subject: 'Second' });
    const files = readdirSync(join(dataDir, 'mail')).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{12}\.eml$/);
    const text = readFileSync(join(dataDir, 'mail', files[0] ?? ''), 'utf8');
    expect(text).toMatch(/^To: owner@example\.test\r$/m);
    expect(text).toMatch(/^Subject: Verify your address\r$/m);
    expect(text).toMatch(/^From: svc <no-reply@svc\.invalid>\r$/m);
    expect(text).toMatch(/^Date: /m);
    expect(text).toMatch(/^Message-ID: <.+>\r$/m);
    expect(text).toContain('verify-email?token=ver_abc');
    expect(lines[0]).toContain('owner@example.test');
    expect(lines[0]).toContain('Verify your address');
  });
});

describe(SmtpMailer.name, () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => smtp.close());

  it('delivers over SMTP to the recipient with subject and body', async () => {
    const sut = createMailer({
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      dataDir: '/unused',
      log: () => undefined,
    });
    expect(sut).toBeInstanceOf(SmtpMailer);
    await sut.send(message);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.to).toEqual(['owner@example.test']);
    expect(smtp.received[0]?.data).toContain('Subject: Verify your address');
    expect(smtp.received[0]?.data).toContain('verify-email?token=ver_abc');
  });
});

describe(createMailer.name, () => {
  it('writes to the outbox folder without SMTP_URL', () => {
    expect(createMailer({ dataDir: '/tmp', log: () => undefined })).toBeInstanceOf(OutboxFolderMailer);
  });
});

describe(MemoryMailer.name, () => {
  it('keeps what it was asked to send', async () => {
    const sut = new MemoryMailer();
    await sut.send(message);
    expect(sut.to('owner@example.test')).toEqual([message]);
  });
});

/** The text/plain part of a composed message: its headers and its body as sent. */
function textPartOf(raw: string): { headers: string; body: string } {
  const part = raw.split(/\r?\n--/).find((chunk) => /Content-Type: text\/plain/i.test(chunk));
  if (part === undefined) throw new Error(`no text/plain part in ${raw}`);
  const [headers = '', ...body] = part.split(/\r?\n\r?\n/);
  return { headers, body: body.join('\n\n') };
}

describe('the text part of emailed links (issue 30: a token readable in the message source)', () => {
  // A dashboard address long enough that the link's line passes 76 characters, where nodemailer would wrap.
  const link = `https://dashboard.customer-portal.example.test/verify-email?token=ver_${'A1b2C3d4'.repeat(5)}xyz`;
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-mail-links-'));
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes the verification and reset links unencoded (7bit), each whole on its line, in the outbox .eml', async () => {
    const sut = new OutboxFolderMailer(dataDir, () => undefined);
    const reset = link.replace('verify-email?token=ver_', 'reset-password?token=rst_');
    await sut.send(verificationMail('owner@example.test', link));
    await sut.send(passwordResetMail('owner@example.test', reset));
    const files = readdirSync(join(dataDir, 'mail')).sort();
    expect(files).toHaveLength(2);
    for (const [file, url] of [
      [files[0], link],
      [files[1], reset],
    ] as const) {
      const text = textPartOf(readFileSync(join(dataDir, 'mail', file ?? ''), 'utf8'));
      expect(text.headers).toMatch(/^Content-Transfer-Encoding: 7bit$/im);
      expect(text.body.split(/\r?\n/)).toContain(url);
      expect(text.body).not.toMatch(/=\r?\n|=3D/);
    }
  });

  it('delivers the same unencoded text part over SMTP, its HTML part beside it', async () => {
    const sut = new SmtpMailer(`smtp://127.0.0.1:${smtp.port}`);
    await sut.send(verificationMail('owner@example.test', link));
    const raw = smtp.received.at(-1)?.data ?? '';
    expect(raw).toMatch(/^Content-Type: multipart\/alternative/im);
    expect(raw).toMatch(/^Content-Type: text\/html/im);
    const text = textPartOf(raw);
    expect(text.headers).toMatch(/^Content-Transfer-Encoding: 7bit$/im);
    expect(text.body.split(/\r?\n/)).toContain(link);
  });

  it('leaves text that is not plain ASCII to nodemailer’s own encoding', async () => {
    const sut = new SmtpMailer(`smtp://127.0.0.1:${smtp.port}`);
    await sut.send({
      to: 'owner@example.test',
      subject: 'Café',
      text: 'Crème brûlée\n',
      html: '<p>Crème</p>',
    });
    const text = textPartOf(smtp.received.at(-1)?.data ?? '');
    expect(text.headers).toMatch(/^Content-Transfer-Encoding: quoted-printable$/im);
    expect(text.body).toContain('Cr=C3=A8me');
  });
});
