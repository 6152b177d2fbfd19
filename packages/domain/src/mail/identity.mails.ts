import type { MailMessage } from './mailer.ports.js';

/** The name the messages sign with. */
const SERVICE = 'svc';

/** A paragraph of text, or a link: its address alone in the text part, an anchor and the address in HTML. */
type Block = { paragraph: string } | { link: string; label: string };

/** Escapes text for HTML content and quoted attribute values; addresses come from users, links from settings. */
function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function blockHtml(block: Block): string {
  if ('paragraph' in block) return `<p>${escapeHtml(block.paragraph)}</p>`;
  const href = escapeHtml(block.link);
  return `<p><a href="${href}">${escapeHtml(block.label)}</a><br><span style="word-break: break-all">${href}</span></p>`;
}

/**
 * Builds both parts from the same blocks, so the plain text part (read by text-only clients and spam filters)
 * always says what the HTML part says, with every link spelt out.
 */
export function composeMail(to: string, subject: string, blocks: readonly Block[]): MailMessage {
  const all: readonly Block[] = [...blocks, { paragraph: SERVICE }];
  const text = `${all.map((block) => ('paragraph' in block ? block.paragraph : block.link)).join('\n\n')}\n`;
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5">',
    ...all.map(blockHtml),
    '</body></html>',
    '',
  ].join('\n');
  return { to, subject, text, html };
}

/** Sent to a new account's address: the account is usable only once the owner proves they read this inbox. */
export function verificationMail(to: string, link: string): MailMessage {
  return composeMail(to, `Verify your email address for ${SERVICE}`, [
    { paragraph: `Confirm that ${to} is your email address to finish creating your ${SERVICE} account:` },
    { link, label: 'Verify email address' },
    { paragraph: 'This link is valid for 24 hours and works once.' },
    { paragraph: `If you did not sign up for ${SERVICE}, ignore this email.` },
  ]);
}

/**
 * Sent instead of a verification when someone signs up with an address that already has an account: the
 * signup answer is the same either way, so only the inbox owner learns the address is registered.
 */
export function accountExistsMail(to: string, links: { login: string; reset: string }): MailMessage {
  return composeMail(to, `You already have an ${SERVICE} account`, [
    {
      paragraph: `Someone tried to sign up for ${SERVICE} with ${to}, but this address already has an account. If it was you, sign in:`,
    },
    { link: links.login, label: 'Sign in' },
    { paragraph: 'Forgot your password? Reset it:' },
    { link: links.reset, label: 'Reset password' },
    { paragraph: "If it wasn't you, ignore this email; nothing has changed on your account." },
  ]);
}

/** Sent on a password reset request; the link is the only proof of owning the address the reset needs. */
export function passwordResetMail(to: string, link: string): MailMessage {
  return composeMail(to, `Reset your ${SERVICE} password`, [
    {
      paragraph: `Someone asked to reset the password of the ${SERVICE} account of ${to}. Choose a new one:`,
    },
    { link, label: 'Choose a new password' },
    { paragraph: 'This link is valid for one hour and works once.' },
    { paragraph: 'If you did not ask for this, ignore this email; your password stays as it is.' },
  ]);
}

/**
 * Sent after a password change, so that an owner whose session was hijacked learns of it and can take the
 * account back with a reset, which the attacker's new password does not prevent.
 */
export function passwordChangedMail(to: string, links: { security: string; reset: string }): MailMessage {
  return composeMail(to, `Your ${SERVICE} password was changed`, [
    {
      paragraph: `The password of the ${SERVICE} account of ${to} was changed, and every other session was signed out. Review your account's security:`,
    },
    { link: links.security, label: 'Account security' },
    { paragraph: "If it wasn't you, reset your password now:" },
    { link: links.reset, label: 'Reset password' },
  ]);
}

/** An API token as a password-reset notice lists it: enough to recognise it, never its secret. */
export interface ListedApiToken {
  name: string;
  /** The secret's first characters, as the token list shows them. */
  prefix: string;
  scopes: readonly string[];
  lastUsedAt: Date | null;
}

/** How many tokens a reset notice names before it says how many more there are. */
const LISTED_TOKENS = 20;

/**
 * Sent after a password reset. The reset signed every session out, but API tokens live on: whoever held the
 * account before (the reason for a reset, often) may have minted one, so the owner is shown every token still
 * active and where to revoke them.
 */
export function passwordResetNoticeMail(
  to: string,
  tokens: readonly ListedApiToken[],
  links: { security: string; reset: string },
): MailMessage {
  const shown = tokens.slice(0, LISTED_TOKENS).map((token) => {
    const used = token.lastUsedAt === null ? 'never used' : `last used ${token.lastUsedAt.toISOString()}`;
    return {
      paragraph: `- ${token.name} (${token.prefix}…; ${token.scopes.join(', ') || 'no scopes'}; ${used})`,
    };
  });
  const more = tokens.length - shown.length;
  return composeMail(to, `Your ${SERVICE} password was reset`, [
    {
      paragraph: `The password of the ${SERVICE} account of ${to} was reset with an emailed link, and every session was signed out.`,
    },
    ...(tokens.length === 0
      ? [{ paragraph: 'The account has no active API tokens.' }]
      : [
          {
            paragraph: `API tokens are not signed out by a reset. These ${tokens.length} are still active; revoke any you do not recognise:`,
          },
          ...shown,
          ...(more > 0 ? [{ paragraph: `… and ${more} more.` }] : []),
        ]),
    { link: links.security, label: 'Review API tokens and account security' },
    { paragraph: 'If you did not reset your password, reset it again now:' },
    { link: links.reset, label: 'Reset password' },
  ]);
}

/** Sent when an address asks to join the waitlist, so that nobody can put someone else's address on it. */
export function waitlistConfirmationMail(to: string, link: string): MailMessage {
  return composeMail(to, `Confirm your place on the ${SERVICE} waitlist`, [
    { paragraph: `Confirm that ${to} should join the ${SERVICE} waitlist:` },
    { link, label: 'Confirm my address' },
    {
      paragraph: `We will write to you when ${SERVICE} opens to you. If you did not ask to join, ignore this email.`,
    },
  ]);
}

/** Sent when a second factor is turned on or off, or recovery codes are replaced. */
export function secondFactorChangedMail(
  to: string,
  change: string,
  links: { security: string },
): MailMessage {
  return composeMail(to, `Your ${SERVICE} sign-in security changed`, [
    { paragraph: `On the ${SERVICE} account of ${to}: ${change}.` },
    { paragraph: "If it wasn't you, secure your account now:" },
    { link: links.security, label: 'Account security' },
  ]);
}

/** The account recovery link; with it and one recovery code the owner signs in and sets up a factor again. */
export function accountRecoveryMail(to: string, link: string): MailMessage {
  return composeMail(to, `Recover your ${SERVICE} account`, [
    {
      paragraph: `Someone asked to recover the ${SERVICE} account of ${to}. Open this link within an hour and enter one of your recovery codes:`,
    },
    { link, label: 'Recover account' },
    { paragraph: "If it wasn't you, ignore this email; nothing changes without a recovery code." },
  ]);
}

/** A deletion's due time as the owner reads it, in UTC since a mail cannot know the reader's time zone. */
const DUE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'full',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/**
 * Sent when a deletion of the account is requested, by the owner or by an operator on their behalf (spec 3),
 * so that the request is confirmed in the inbox: when the erasure happens, and the link that undoes it (sign
 * in, then cancel) while the cooling-off runs. `reference` is the support ticket when an operator asked.
 */
export function accountDeletionRequestedMail(
  to: string,
  due: Date,
  links: { undo: string },
  reference?: string,
): MailMessage {
  const when = `${DUE_FORMAT.format(due)} UTC`;
  return composeMail(to, `Your ${SERVICE} account will be deleted on ${DUE_FORMAT.format(due)}`, [
    {
      paragraph: `A deletion of your ${SERVICE} account ${to} was requested. It will be deleted with its profiles, logs and settings on ${when}.`,
    },
    ...(reference === undefined ? [] : [{ paragraph: `Reference: ${reference}` }]),
    {
      paragraph:
        'Until then its profiles no longer filter, and every session, API token and node was signed out.',
    },
    { paragraph: 'Changed your mind? Sign in before then and cancel the deletion:' },
    { link: links.undo, label: 'Cancel the deletion' },
    {
      paragraph: `If you did not ask for this, cancel it now and contact ${SERVICE} support.`,
    },
  ]);
}

/**
 * Sent when a pending account deletion is cancelled (spec 6.4 `account_deletion_canceled`), so the owner
 * learns of a cancel they did not make; `reference` is the support ticket when an operator cancelled it.
 */
export function accountDeletionCanceledMail(to: string, reference?: string): MailMessage {
  return composeMail(to, `Your ${SERVICE} account will not be deleted`, [
    {
      paragraph: `The deletion of your ${SERVICE} account ${to} was cancelled; your profiles are back in service.`,
    },
    ...(reference === undefined ? [] : [{ paragraph: `Reference: ${reference}` }]),
    { paragraph: 'Sessions and API tokens signed out by the deletion request stay signed out.' },
    {
      paragraph: `If you did not cancel it, sign in and review your account, or contact ${SERVICE} support.`,
    },
  ]);
}
