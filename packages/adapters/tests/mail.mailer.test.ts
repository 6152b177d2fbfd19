import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, MemoryMailer, OutboxFolderMailer, SmtpMailer } from '../src/index.js';
import { startSmtpServer, type TestSmtpServer } from './support/smtp-server.js';

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
