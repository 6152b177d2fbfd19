import { plural } from '../plural.js';

/** How failures and the service's questions read (problems/, session/). */
export const problems = {
  'problems.reference': 'Reference:',
  'problems.signInAgain': 'Sign in again',
  'problems.retryIn': (p: { seconds: number }) =>
    plural('en', p.seconds, {
      one: 'You can try again in # second.',
      other: 'You can try again in # seconds.',
    }),
  'problems.changedMeanwhile':
    'Your change was not saved. Check what is stored now, then make your change again if you still want it.',
  'problems.goToAccount': 'Go to your account page',
  'problems.setUpSecondFactor': 'Set up a second factor',
  'problems.operatorsOnly': 'For operators only',
  'problems.operatorsOnlyAdvice': 'This page is for operator accounts.',
  'problems.confirm.title': 'Confirm it is you',
  'problems.confirm.why': 'This change needs a sign-in within the last five minutes.',
  'problems.confirm.password': 'Your password',
  'problems.confirm.code': 'Authenticator code',
  'problems.confirm.codeHint': 'The 6-digit code your authenticator app shows for svc.',
  'problems.confirm.submit': 'Confirm',
  'problems.confirm.passkey': 'Confirm with a passkey',
} as const;
