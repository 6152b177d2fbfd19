import type { MailMessage } from '../mail/mailer.ports.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The list-report outcome sent to the reporter (spec 6.4): the decision and the operator's note. */
export function listReportOutcomeMail(
  to: string,
  report: { domain: string; listId: number; status: 'accepted' | 'rejected'; resolutionNote: string },
): MailMessage {
  const verdict =
    report.status === 'accepted'
      ? 'was accepted: it will be reviewed for a change to the list; nothing changes automatically.'
      : 'was rejected: the list stays as it is for this domain.';
  const paragraphs = [
    `Your report about ${report.domain} on list ${report.listId} ${verdict}`,
    `Note from the operators: ${report.resolutionNote}`,
    'svc',
  ];
  return {
    to,
    subject: `Your list report about ${report.domain} was ${report.status}`,
    text: `${paragraphs.join('\n\n')}\n`,
    html: [
      '<!doctype html>',
      '<html lang="en"><head><meta charset="utf-8"></head><body style="font-family: sans-serif">',
      ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
      '</body></html>',
      '',
    ].join('\n'),
  };
}
