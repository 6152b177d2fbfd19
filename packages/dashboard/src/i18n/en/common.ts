import { plural } from '../plural.js';

/** Words used across areas: buttons, states, and the acknowledgements of saves. */
export const common = {
  'common.loading': 'Loading…',
  'common.save': 'Save',
  'common.saving': 'Saving…',
  'common.saved': 'Saved.',
  'common.cancel': 'Cancel',
  'common.keep': 'Keep it',
  'common.retry': 'Try again',
  'common.dismiss': 'Dismiss',
  'common.on': 'On',
  'common.off': 'Off',
  'common.notifications': 'Notifications',
  'common.rolledBack': (p: { what: string; reason: string }) => `${p.what} was not changed: ${p.reason}`,
  'common.changedElsewhere':
    'Someone changed this profile in another tab or device. The page now shows the current values; make your change again.',
  'common.items': (p: { count: number }) => plural('en', p.count, { one: '# item', other: '# items' }),
} as const;
