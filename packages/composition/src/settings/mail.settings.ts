import { settingDocs } from './setting-docs.js';
import { type Parsed, urlWithSchemes } from './setting-schemas.js';

/** The variables of this section, as RUNNER.md names them (documented where declared). */
export const mailVariables = {
  SMTP_URL: urlWithSchemes(['smtp:', 'smtps:']).optional().register(settingDocs, {
    defaultText: 'outbox folder',
    description:
      '`smtp(s)://…`: send mail over SMTP; unset writes `<data-dir>/mail/<timestamp>-<id>.eml` and logs one line',
  }),
};

/** Mail: an SMTP server, or the outbox folder of the data dir when unset. */
export interface MailSettings {
  smtpUrl?: string | undefined;
}

export function mailSettings(raw: Parsed<typeof mailVariables>): MailSettings {
  return { smtpUrl: raw.SMTP_URL };
}
