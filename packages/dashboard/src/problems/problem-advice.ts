import { t } from '../i18n/t.js';

/** How the dashboard words one problem code: a plain title, and what the person can do about it. */
export interface ProblemWording {
  title: string;
  advice?: string;
}

/**
 * Plain-language wording per problem code (spec section 7). The server's `detail` is shown as well; codes not
 * listed here (a newer server may add some) fall back to a title from the status.
 */
const PROBLEM_WORDING: Readonly<Record<string, ProblemWording>> = {
  validation_failed: { title: 'Some answers need changing', advice: 'Correct the fields marked below.' },
  bad_request: { title: 'The request was not understood', advice: 'Reload the page and try again.' },
  password_too_short: {
    title: 'The password is too short',
    advice: 'Use at least 12 characters. A few unrelated words make a strong, memorable password.',
  },
  password_too_long: { title: 'The password is too long', advice: 'Use at most 128 characters.' },
  invalid_credentials: {
    title: 'Email address or password is wrong',
    advice: 'Check both and try again, or reset your password.',
  },
  second_factor_required: {
    title: 'Enter your authenticator code',
    advice: 'Open your authenticator app and type the 6-digit code it shows for svc.',
  },
  invalid_second_factor: {
    title: 'That code did not work',
    advice: 'Codes change every 30 seconds: enter the current one, or use a recovery code.',
  },
  invalid_recovery_code: { title: 'That recovery code did not work', advice: 'Each code works once only.' },
  unauthenticated: { title: 'You are signed out', advice: 'Sign in again to continue.' },
  session_required: {
    title: 'This needs a signed-in session',
    advice: 'Sign in to the dashboard; API tokens cannot do this.',
  },
  reauth_required: {
    title: 'Confirm it is you',
    advice: 'This change needs a sign-in within the last five minutes. Sign in again, then repeat it.',
  },
  mfa_required: {
    title: 'A stronger sign-in is needed',
    advice: 'Sign in with a passkey, or with your password and an authenticator code.',
  },
  mfa_enrolment_required: {
    title: 'Set up a second factor first',
    advice: 'Your account was recovered: set up an authenticator app or a passkey to unlock the rest.',
  },
  insufficient_scope: { title: 'Not allowed with this credential' },
  csrf_rejected: {
    title: 'This page may not change your account',
    advice: 'Open the dashboard from its own address and try again.',
  },
  invalid_token: {
    title: 'This link is not valid',
    advice: 'Copy the whole link from the email, or ask for a new one.',
  },
  token_expired: { title: 'This link has expired', advice: 'Ask for a new one below.' },
  token_used: {
    title: 'This link was already used',
    advice: 'If it was yours, you are done: sign in. Otherwise ask for a new one.',
  },
  signup_closed: { title: 'Signing up is closed', advice: 'This service is not taking new accounts now.' },
  invite_required: {
    title: 'An invitation is needed',
    advice: 'Enter the invite code you were sent, or sign up with an address the operator allowed.',
  },
  waitlist_unavailable: { title: 'The waitlist is not open' },
  email_unverified: {
    title: 'Verify your email address first',
    advice: 'Open the link we emailed you, or ask for a new one. Then sign in again and repeat this.',
  },
  account_pending_deletion: {
    title: 'This account is being deleted',
    advice: 'Cancel the deletion from your account page to use it again.',
  },
  not_found: { title: 'Not found', advice: 'It may have been deleted, or the link is wrong.' },
  version_mismatch: {
    title: 'Someone else changed this meanwhile',
    // The pages read the stored version again themselves (or offer to), so no reload is asked for.
    advice: t('problems.changedMeanwhile'),
  },
  rate_limited: { title: 'Too many attempts', advice: 'Wait a moment, then try again.' },
  too_many_streams: {
    title: 'Too many live views open',
    advice: 'Close another live log tab and try again.',
  },
  last_credential: {
    title: 'This is your last way to sign in',
    advice: 'Add a password or another passkey first.',
  },
  passkeys_unavailable: {
    title: 'Passkeys are not available here',
    advice: 'Passkeys need the dashboard on a domain name (localhost included), not a bare IP address.',
  },
  passkey_invalid: { title: 'The passkey was not accepted', advice: 'Try again, or sign in another way.' },
  ceremony_invalid: { title: 'The passkey request expired', advice: 'Start again.' },
  totp_already_enabled: {
    title: 'An authenticator app is already on',
    advice: 'To move it to another app, turn it off below, then set it up again.',
  },
  totp_not_enabled: { title: 'No authenticator app is on' },
  no_second_factor: { title: 'This account has no second factor', advice: 'Set one up first.' },
  export_in_progress: { title: 'An export is already being prepared', advice: 'Wait for it to finish.' },
  export_not_ready: { title: 'The export is not ready yet', advice: 'Wait a moment and try again.' },
  no_deletion_pending: { title: 'No deletion is pending' },
  deletion_started: { title: 'The deletion has already started', advice: 'It can no longer be cancelled.' },
  deletion_pending: {
    title: 'This account is already being deleted',
    advice: 'Cancel the deletion first to change anything.',
  },
  organisation_has_members: {
    title: 'The organisation still has other members',
    advice: 'Remove them, or hand the organisation over, before deleting your account.',
  },
  internal: {
    title: 'Something went wrong on our side',
    advice: 'It has been recorded. Try again in a moment; quote the reference if you contact support.',
  },
  network_error: {
    title: 'The service could not be reached',
    advice: 'Check your connection and try again. A change you just made may or may not have been saved.',
  },
  script_error: {
    title: 'The page failed',
    advice: 'It has been reported. Reload the page to continue.',
  },
  // Profiles, logs, analytics, nodes and the operator area.
  profile_suspended: {
    title: 'This profile is suspended',
    advice: 'An operator suspended it: it can be read but not changed until it is reinstated.',
  },
  profile_not_empty: {
    title: 'This profile still has nodes',
    advice: 'Revoke its self-hosted nodes first, then delete it.',
  },
  ip_conflict: {
    title: 'This address is linked already',
    advice: 'An address can be linked to one profile only. Unlink it there first.',
  },
  too_many_rules: {
    title: 'Too many rules',
    advice: 'Remove some rules, or use a blocklist instead of many single names.',
  },
  unknown_list: {
    title: 'That list is not in the catalogue',
    advice: 'Reload the page to see the current lists.',
  },
  list_refused: {
    title: 'That content was refused as a list',
    advice: 'Check the file is the list itself (not a web page); the version in force stays.',
  },
  too_many_reports: {
    title: 'Too many reports today',
    advice: 'An account can send 20 reports a day. Try again later.',
  },
  block_exists: {
    title: 'This pattern is blocked already',
    advice: 'Remove the live block first to replace it.',
  },
  range_too_large: {
    title: 'The time range is too long',
    advice: 'Choose a shorter range: this view covers at most 31 days.',
  },
  query_too_expensive: {
    title: 'This question is too big to answer',
    advice: 'Narrow the time range or add filters; asking again unchanged will not help.',
  },
  too_many_queries: {
    title: 'Too many questions at once',
    advice: 'Your organisation has several log or analytics queries running. Wait a moment.',
  },
  query_timeout: { title: 'The answer took too long', advice: 'Narrow the time range or add filters.' },
  not_implemented: {
    title: 'Not available on this deployment',
    advice: 'This server is not set up for it.',
  },
  shape_unsupported: {
    title: 'Your node is too old for this view',
    advice: 'Update the self-hosted node to see it.',
  },
  node_offline: {
    title: 'Your self-hosted node is offline',
    advice: 'Its logs are answered once it reconnects.',
  },
  node_busy: {
    title: 'Your node is busy',
    advice: 'It is answering other questions. Try again in a moment.',
  },
  node_timeout: { title: 'Your node did not answer in time', advice: 'Try again, or narrow the question.' },
  node_error: { title: 'Your node could not answer', advice: 'Check its log, then try again.' },
  relay_unavailable: {
    title: 'Your node cannot be reached right now',
    advice: 'Try again in a moment.',
  },
  invalid_cursor: { title: 'This page of results expired', advice: 'Start the search again.' },
};

const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'The request was not understood',
  401: 'You are signed out',
  403: 'Not allowed',
  404: 'Not found',
  409: 'This conflicts with the current state',
  412: 'Someone else changed this meanwhile',
  422: 'Some answers need changing',
  429: 'Too many attempts',
  501: 'Not available on this deployment',
  503: 'Temporarily unavailable',
};

/** The wording of `code`, or a generic one from `status`. */
export function wordingOf(code: string, status: number | undefined): ProblemWording {
  const known = PROBLEM_WORDING[code];
  if (known !== undefined) return known;
  if (status !== undefined && status >= 500) return PROBLEM_WORDING.internal ?? { title: 'Server error' };
  return { title: (status === undefined ? undefined : STATUS_TITLES[status]) ?? 'Something went wrong' };
}
