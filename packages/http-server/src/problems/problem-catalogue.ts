import type { ProblemCode } from '@svc/domain';

/**
 * What each problem code means and what a client does about it: the text of the page its problem `type` URI
 * answers (GET /problems/<code>). One entry per code, so a new code does not compile without its explanation.
 */
export const PROBLEM_CATALOGUE: Record<ProblemCode, string> = {
  bad_request:
    'The request could not be read: malformed JSON, a header or query that does not parse, or something else before validation. Fix the request; retrying it unchanged fails again.',
  body_too_large:
    'The request body is larger than the server accepts (SVC_BODY_LIMIT_BYTES, 1 MiB by default). Send less at once.',
  bad_if_match:
    'The If-Match header is not a version this resource could have. Send the ETag the last read of the resource answered.',
  invalid_token:
    'The emailed token, enrolment code or link is not valid: mistyped, cut short, or never issued. Ask for a new one.',
  token_expired:
    'The emailed token has expired. Ask for a new one (verification links last 24 hours, reset links one hour).',
  token_used: 'The emailed token was already used; each works once. Ask for a new one if you still need it.',
  invalid_cursor:
    'The pagination cursor is not one this server issued for this listing (or is too long). Start again from the first page.',
  bad_idempotency_key: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
  unauthenticated:
    'No valid credential: sign in (session cookie) or send `Authorization: Bearer svc_…` with a live API token.',
  second_factor_required:
    'This account has a second factor: sign in again with the authenticator code or a recovery code as well as the password.',
  invalid_recovery_code: 'The recovery code is not one of this account’s unused recovery codes.',
  node_revoked: 'This node’s token was revoked: the node must be created and enrolled again.',
  insufficient_scope:
    'The API token lacks the scope this operation needs (the detail names it). Each scope grants only what it names: profiles:write does not include profiles:read. Create a token with every scope you use.',
  insufficient_role:
    'Your role in this organisation does not allow this operation (the detail names the role it needs). Roles are owner, admin, editor and viewer; an admin or the owner can change yours. A token can never do more than its maker’s role.',
  already_member: 'The address or account already belongs to this organisation.',
  last_owner:
    'The organisation must keep its one owner: transfer ownership (POST /v1/org/ownership) instead of demoting or removing the owner.',
  session_required:
    'Only a signed-in session may do this (creating or revoking tokens, account security): API tokens are refused.',
  csrf_rejected:
    'The request came from an origin that is not an allowed dashboard origin (SVC_DASHBOARD_ORIGINS). Call from the dashboard, or without a browser Origin header.',
  reauth_required: 'This change needs a sign-in from the last five minutes: sign in again, then repeat it.',
  mfa_enrolment_required:
    'This is a restricted recovery session: set up a second factor (POST /v1/auth/totp) before anything else.',
  mfa_required:
    'Operator actions and admin-scoped tokens need a sign-in with a passkey, or a password and an authenticator code.',
  account_pending_deletion:
    'The account is in its deletion cooling-off: reads work, changes do not. Cancel the deletion (POST /v1/auth/me/undelete) to change anything.',
  signup_closed: 'Signup is closed on this deployment.',
  invite_required: 'Signup needs an invite code on this deployment (or an address on its allowlist).',
  credential_required: 'The account needs a way to sign in: set a password or register a passkey first.',
  not_found:
    'Nothing here: the resource does not exist, or belongs to another organisation (which is answered the same way).',
  method_not_allowed:
    'This path exists, but not with this method; the Allow header lists the methods it takes.',
  ip_conflict: 'This address is already linked to a profile; unlink it there first.',
  idempotency_key_reused:
    'This Idempotency-Key was used with a different request in the last 24 hours. Use a new key for a new request.',
  idempotency_in_progress:
    'A request with this Idempotency-Key is still running. Retry after Retry-After seconds to get its answer.',
  profile_not_empty:
    'The profile still has enrolled self-hosted nodes: revoke them (DELETE /v1/profiles/{id}/nodes/{nodeId}), then delete it.',
  profile_suspended:
    'An operator suspended this profile: reads work, changes do not, until an operator reinstates it.',
  node_token_superseded:
    'This node token was replaced by a rotation that happened at the same time; use the token that rotation returned.',
  block_exists: 'A live operator block already has this pattern.',
  last_credential:
    'This is the account’s only way to sign in; add another passkey or a password before removing it.',
  no_deletion_pending: 'The account has no pending deletion to cancel.',
  deletion_started: 'The erasure of this account has begun; it can no longer be cancelled.',
  version_mismatch:
    'The resource changed since you read it (If-Match does not match its version). Read it again, reapply your change, and retry.',
  unsupported_media_type: 'Send the request body as `application/json` (UTF-8).',
  validation_failed:
    'Some fields are not valid; `errors` lists each field (dotted path) with what it must be. Fix them and retry.',
  unknown_list: 'A list id is not in the catalogue (GET /v1/lists).',
  list_refused:
    'The content given for a list is an HTML page or binary, has no valid entry, or has fewer than half the entries of the version in force; that version stays (`svc lists import --allow-shrink` accepts a real shrink).',
  too_many_rules: 'The profile would hold more rules than the plan allows (SVC_RULES_LIMIT).',
  too_many_allowances:
    'The profile already has the most timed allowances running at once (100); end one (DELETE …/allowances/{allowanceId}) or wait for one to expire.',
  password_too_short: 'The password must have at least 12 characters (Unicode code points).',
  password_too_long: 'The password must have at most 128 characters (Unicode code points).',
  range_too_large: 'The time range (`from` to `to`) is longer than this query allows; narrow it.',
  query_too_expensive:
    'The log or analytics query would read too much. Narrow the range or add filters; retrying it unchanged does not help.',
  rate_limited:
    'Too many requests from this client, or a sign-in attempt sooner than a failed one allows. Wait Retry-After seconds (also `retry_after` in the body).',
  too_many_streams:
    'This account already has the most live log streams one API server allows (4); close one.',
  too_many_reports: 'Too many list reports in a short time; wait before reporting more.',
  too_many_queries:
    'Too many log or analytics queries in a short time. Wait Retry-After seconds (also `retry_after` in the body).',
  not_implemented:
    'This deployment does not offer this feature (for example query logs without a columnar store).',
  shape_unsupported: 'The profile’s self-hosted node is too old for this analytics shape; update the node.',
  node_error: 'The self-hosted node answered the relayed query with an error.',
  node_offline:
    'No self-hosted node of this profile is connected to answer the query. Retry after Retry-After seconds.',
  node_busy: 'The self-hosted node has too many queries in flight; retry shortly.',
  relay_unavailable:
    'The query could not be carried to the API server its node is connected to; retry shortly.',
  node_timeout: 'The self-hosted node did not answer within 10 seconds.',
  query_timeout: 'The query ran longer than this deployment allows (SVC_QUERY_TIMEOUT_SECONDS); narrow it.',
  invalid_credentials: 'The email address or the password is wrong.',
  waitlist_unavailable: 'There is no waitlist on this deployment: signup is open, or closed to everyone.',
  internal:
    'Something failed on the server, or a store it needs is out of reach (then with Retry-After). Retry later; quote `request_id` when reporting it.',
  result_too_large: 'The result would be larger than this deployment returns at once; narrow the query.',
  invalid_second_factor: 'The authenticator code is wrong or expired; use the current code from the app.',
  no_second_factor: 'The account has no second factor yet; set one up first (recovery codes come with one).',
  totp_already_enabled: 'An authenticator app is already set up; disable it before setting up another.',
  totp_not_enabled: 'No authenticator app is set up on this account.',
  passkey_exists: 'This passkey is already registered on an account.',
  passkey_invalid: 'The passkey response did not verify (wrong signature, origin or credential).',
  passkeys_unavailable: 'This deployment does not offer passkeys.',
  ceremony_invalid: 'The passkey ceremony is unknown or expired: ask for new options and start again.',
  deletion_pending: 'A deletion of this account is already pending.',
  organisation_has_members: 'The organisation still has other members; they must leave or be removed first.',
  export_in_progress: 'A data export of this account is already being prepared; wait for it to finish.',
  export_not_ready: 'The data export is not ready to download yet; check its status again later.',
  email_unverified:
    'The account’s address is not verified yet: open the link in the verification email (or ask for a new one, POST /v1/auth/resend-verification), then sign in again.',
  too_many_linked_ips:
    'The profile or the account is at its cap of linked IPs (DDNS slots count); unlink one first.',
};
