/**
 * The pages before the dashboard: sign in, sign up, the waitlist, resetting the password, recovering the account
 * and the emailed links that verify an address or confirm a place on the waitlist.
 */
export const accountEntry = {
  // Signing in.
  'account.signIn.title': 'Sign in',
  'account.signIn.email': 'Email address',
  'account.signIn.password': 'Password',
  'account.signIn.code': 'Authenticator code',
  'account.signIn.codeHint': 'The 6-digit code your authenticator app shows for svc.',
  'account.signIn.codeTitle': 'Enter your authenticator code',
  'account.signIn.codeAdvice': 'Open your authenticator app and type the 6-digit code it shows for svc.',
  'account.signIn.deletionDue': 'Your account will be deleted on',
  'account.signIn.deletionSignedOut':
    'You are signed out everywhere, and its tokens and nodes no longer work.',
  'account.signIn.deletionUndo': 'Changed your mind? Sign in before then and choose Cancel the deletion.',
  'account.signIn.signedOut': 'You are signed out.',
  'account.signIn.withPasskey': 'With a passkey',
  'account.signIn.passkey': 'Sign in with a passkey',
  'account.signIn.orPassword': 'or with your password',
  'account.signIn.busy': 'Signing in…',
  'account.signIn.submit': 'Sign in',
  'account.signIn.lostAuthenticator': 'Lost your authenticator?',
  'account.signIn.recover': 'Recover your account with a recovery code',
  'account.signIn.forgotten': 'Forgotten your password?',
  'account.signIn.newHere': 'New here?',
  'account.signIn.signUp': 'Create an account',

  // Signing up, and the waitlist.
  'account.signUp.title': 'Create an account',
  'account.signUp.email': 'Email address',
  'account.signUp.password': 'Password',
  'account.signUp.passwordHint':
    '12 to 128 characters. A few unrelated words make a strong, memorable password.',
  'account.signUp.inviteCode': 'Invite code',
  'account.signUp.inviteCodeHint': 'Leave it empty if the operator allowed your address.',
  'account.signUp.inviteOnly':
    'Signing up needs an invitation: enter the invite code you were sent, or use an address the operator allowed.',
  'account.signUp.busy': 'Creating your account…',
  'account.signUp.submit': 'Create account',
  'account.signUp.haveAccount': 'Already have an account?',
  'account.signUp.signIn': 'Sign in',
  'account.signUp.checkEmail': 'Check your email',
  'account.signUp.sent':
    'We sent a link to verify your address. Open it within 24 hours to finish. If you already have an account, the email says so instead.',
  'account.signUp.goToSignIn': 'Go to sign in',
  'account.signUp.closedForNow': 'Signing up is closed for now.',
  'account.signUp.closed': 'Signing up is closed. This service is not taking new accounts now.',
  'account.signUp.noInvitation': 'No invitation? Join the waitlist',
  'account.waitlist.intro':
    'Leave your address to join the waitlist: we will email you when you can sign up.',
  'account.waitlist.email': 'Email address for the waitlist',
  'account.waitlist.submit': 'Join the waitlist',
  'account.waitlist.sent':
    'If the address can join, we sent it a link to confirm your place on the waitlist.',
  'account.waitlist.confirmTitle': 'Your place on the waitlist',
  'account.waitlist.noToken':
    'This page needs the link from your waitlist email. Open the link from the email again.',
  'account.waitlist.confirmed': (p: { email: string }) =>
    `${p.email} is confirmed on the waitlist. We will email you when you can sign up.`,
  'account.waitlist.confirming': 'Confirming…',

  // Resetting the password.
  'account.reset.title': 'Reset your password',
  'account.reset.intro':
    'Enter the email address of your account and we will send you a link to choose a new password.',
  'account.reset.email': 'Email address',
  'account.reset.send': 'Send the link',
  'account.reset.checkEmail': 'Check your email',
  'account.reset.sent':
    'If an account uses that address, we sent it a link to choose a new password. It works for one hour.',
  'account.reset.newPassword': 'New password',
  'account.reset.newPasswordHint': '12 to 128 characters.',
  'account.reset.link': 'Link',
  'account.reset.newLink': 'Ask for a new link',
  'account.reset.submit': 'Change password',
  'account.reset.changedTitle': 'Your password is changed',
  'account.reset.changed': 'Every other session of your account was signed out.',
  'account.reset.signIn': 'Sign in with your new password',

  // Recovering the account with a recovery code.
  'account.recover.title': 'Recover your account',
  'account.recover.intro':
    'Lost your authenticator or passkey? We will email you a link; with one of your recovery codes it signs you in.',
  'account.recover.email': 'Email address',
  'account.recover.send': 'Send the recovery link',
  'account.recover.checkEmail': 'Check your email',
  'account.recover.sent':
    'If an account with a second factor uses that address, we sent it a link. Open it and enter one of your recovery codes.',
  'account.recover.codeIntro':
    'Enter one of the recovery codes you saved when you set up your second factor. Each code works once.',
  'account.recover.code': 'Recovery code',
  'account.recover.newLink': 'Ask for a new link',
  'account.recover.submit': 'Recover and sign in',

  // Verifying the email address.
  'account.verify.title': 'Verify your email address',
  'account.verify.noToken':
    'This page needs the link from your verification email. Open the link from the email again.',
  'account.verify.verified': (p: { email: string }) => `Your email address ${p.email} is verified.`,
  'account.verify.continue': 'Continue to the dashboard',
  'account.verify.signIn': 'Sign in',
  'account.verify.verifying': 'Verifying your address…',
  'account.resend.title': 'Get a new link',
  'account.resend.email': 'Email address',
  'account.resend.submit': 'Send a new link',
  'account.resend.sent':
    'If that address has an unverified account, we sent it a new link. It works for 24 hours.',
} as const;
