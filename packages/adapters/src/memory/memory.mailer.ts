import type { Mailer, MailMessage } from '@svc/domain';

/** Keeps every message instead of sending it: for embedding the API in tests. */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];

  async send(message: MailMessage): Promise<void> {
    this.sent.push({ ...message });
  }

  /** Messages sent to `address`, oldest first. */
  to(address: string): MailMessage[] {
    return this.sent.filter((message) => message.to === address);
  }
}
