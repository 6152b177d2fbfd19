/** One outgoing email. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mail: SMTP with SMTP_URL, else one .eml file per message in `<data-dir>/mail`. */
export const Mailer = Symbol.for('svc.Mailer');
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
