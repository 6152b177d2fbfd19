import { describe, expect, it } from 'vitest';
import {
  accountExistsMail,
  type MailMessage,
  passwordChangedMail,
  passwordResetMail,
  verificationMail,
  waitlistConfirmationMail,
} from '../src/index.js';

/** A link with every character HTML escaping must handle; real links come from settings and tokens. */
const hostile = (path: string) => `https://dash.example.test/${path}?token=t_1&next=<b>"x"</b>'`;
const escaped = (link: string) =>
  link
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
const to = 'owner@example.test';

/** Each template, with the links it must carry. */
const templates: { name: string; mail: MailMessage; links: string[] }[] = [
  {
    name: verificationMail.name,
    mail: verificationMail(to, hostile('verify-email')),
    links: [hostile('verify-email')],
  },
  {
    name: accountExistsMail.name,
    mail: accountExistsMail(to, { login: hostile('login'), reset: hostile('reset-password') }),
    links: [hostile('login'), hostile('reset-password')],
  },
  {
    name: passwordResetMail.name,
    mail: passwordResetMail(to, hostile('reset-password')),
    links: [hostile('reset-password')],
  },
  {
    name: passwordChangedMail.name,
    mail: passwordChangedMail(to, {
      security: hostile('account/security'),
      reset: hostile('reset-password'),
    }),
    links: [hostile('account/security'), hostile('reset-password')],
  },
  {
    name: waitlistConfirmationMail.name,
    mail: waitlistConfirmationMail(to, hostile('waitlist/confirm')),
    links: [hostile('waitlist/confirm')],
  },
];

describe('identity emails', () => {
  it.each(templates)('$name goes to the address, with a subject naming svc', ({ mail }) => {
    expect(mail.to).toBe(to);
    expect(mail.subject).toContain('svc');
    expect(mail.text).toContain('svc');
  });

  it.each(templates)(
    '$name puts each link in the text part as is and in the HTML part escaped',
    ({ mail, links }) => {
      for (const link of links) {
        expect(mail.text.split('\n')).toContain(link);
        expect(mail.html).toContain(`href="${escaped(link)}"`);
      }
    },
  );

  it.each(templates)('$name leaves no markup of an interpolated value in the HTML part', ({ mail }) => {
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('"x"');
    expect(mail.html).toMatch(/^<!doctype html>/);
  });

  it('escapes the address in the HTML part and keeps it as is in the text part', () => {
    const address = '"a<script>alert(1)</script>&b"@example.test';
    const mail = accountExistsMail(address, { login: 'https://d/login', reset: 'https://d/reset-password' });
    expect(mail.to).toBe(address);
    expect(mail.text).toContain(address);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&quot;a&lt;script&gt;alert(1)&lt;/script&gt;&amp;b&quot;@example.test');
  });

  it('states how long the verification and reset links are valid, and that they work once', () => {
    expect(verificationMail(to, 'https://d/v').text).toContain('valid for 24 hours and works once');
    expect(passwordResetMail(to, 'https://d/r').text).toContain('valid for one hour and works once');
  });

  it('tells of signed-out sessions and how to take the account back after a password change', () => {
    const mail = passwordChangedMail(to, {
      security: 'https://d/account/security',
      reset: 'https://d/reset',
    });
    expect(mail.text).toContain('every other session was signed out');
    expect(mail.text).toContain("If it wasn't you, reset your password now:\n\nhttps://d/reset");
  });

  it('tells the owner of an existing account to sign in or reset, or to ignore it', () => {
    const mail = accountExistsMail(to, { login: 'https://d/login', reset: 'https://d/reset-password' });
    expect(mail.text).toContain('already has an account');
    expect(mail.text).toContain("If it wasn't you, ignore this email");
  });
});
