import { createMailer } from '@svc/adapters';
import { Mailer } from '@svc/domain';
import { ContainerModule } from 'inversify';
import type { AdapterLog } from './adapter-settings.js';
import type { MailSettings } from './settings/mail.settings.js';

/**
 * The mailer of the engine-backed stores: SMTP with SMTP_URL, else the outbox folder in the data dir (each
 * message a file, its path logged), which development reads in place of an inbox.
 */
export function mailModule(settings: MailSettings, dataDir: string, log: AdapterLog): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<Mailer>(Mailer).toConstantValue(
      createMailer({ smtpUrl: settings.smtpUrl, dataDir, log: (line) => log.info(line) }),
    );
  });
}
