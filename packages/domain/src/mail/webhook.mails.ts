import { composeMail } from './identity.mails.js';
import type { MailMessage } from './mailer.ports.js';

/** What the disabled-endpoint email names. */
export interface WebhookDisabledFacts {
  webhookId: string;
  url: string;
  failingSince: Date;
  lastError: string | null;
}

/**
 * Sent to the organisation's owners when an endpoint failed every delivery for three days and was disabled:
 * nothing more is sent to it until it is turned back on.
 */
export function webhookDisabledMail(to: string, facts: WebhookDisabledFacts): MailMessage {
  return composeMail(to, 'A webhook endpoint was disabled after three days of failures', [
    {
      paragraph: `Every delivery to your webhook endpoint ${facts.url} has failed since ${facts.failingSince.toISOString()}, so it was disabled and its pending deliveries marked failed.`,
    },
    { paragraph: `Endpoint: ${facts.webhookId}` },
    ...(facts.lastError === null ? [] : [{ paragraph: `Last error: ${facts.lastError}` }]),
    {
      paragraph:
        'Once the endpoint answers again, turn it back on (PATCH /v1/webhooks/{id} with enabled: true) and redeliver what it missed from its deliveries.',
    },
  ]);
}
