/** Timed allowances of a profile (issue 38): from the log, the parental page and the schedules page. */
export const allowances = {
  'allowances.allowFor': 'Allow for',
  'allowances.unblockFor': (p: { service: string }) => `Unblock ${p.service} for`,
  'allowances.domain': 'Domain',
  'allowances.service': 'Service',
  'allowances.servicesTitle': 'Unblock a service for a while',
  'allowances.minutes15': '15 minutes',
  'allowances.hour1': '1 hour',
  'allowances.untilTomorrow': 'Until tomorrow',
  'allowances.created': (p: { subject: string; until: string }) =>
    `${p.subject} is allowed until ${p.until}.`,
  'allowances.running': 'Running allowances',
  'allowances.loading': 'Loading the allowances…',
  'allowances.none': 'No allowance is running.',
  'allowances.item': (p: { subject: string; until: string; left: string }) =>
    `${p.subject}: until ${p.until} (ends ${p.left})`,
  'allowances.end': 'End',
  'allowances.endOf': (p: { subject: string }) => `End the allowance of ${p.subject}`,
  'allowances.ended': (p: { subject: string }) => `The allowance of ${p.subject} has ended.`,
} as const;
