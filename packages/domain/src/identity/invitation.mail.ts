import { composeMail } from '../mail/identity.mails.js';
import type { MailMessage } from '../mail/mailer.ports.js';
import type { Role } from './roles.js';

/** Sent to an invited address: the link opens the dashboard, which accepts it once the person signs in. */
export function invitationMail(to: string, invitedBy: string, role: Role, link: string): MailMessage {
  return composeMail(to, 'You are invited to join an organisation on svc', [
    {
      paragraph: `${invitedBy} invited ${to} to join their organisation on svc as ${role === 'admin' ? 'an' : 'a'} ${role}.`,
    },
    { link, label: 'Accept the invitation' },
    {
      paragraph:
        'Sign in or create an account with this address to accept. The link is valid for 7 days and works once.',
    },
    { paragraph: 'If you did not expect this invitation, ignore this email.' },
  ]);
}
