/**
 * What each tag of the OpenAPI document groups, as generated clients and the API reference show it beside the
 * tag's name. A tag without an entry here is listed with its name alone, which the OpenAPI test refuses.
 */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  admin:
    'Operator routes (scope admin, operator accounts only): operator domain blocks and abusive-source blocks, profile suspension, list-report triage and list sources, account deletion on an owner’s behalf, and the fleet-wide audit log, feedback and client errors.',
  analytics:
    'Aggregates of a profile’s query log over a time range: counts by status, top domains, devices, reasons, owners and PoPs, destinations, and a timeline (scope analytics:read).',
  auth: 'Signing up and in: email verification, the waitlist, sessions, password change and reset, account recovery, passkey sign-in, preferences, the organisation’s audit log, feedback and dashboard error reports, data exports, and account deletion with its cooling-off.',
  catalogue:
    'The blocklists, parental-control categories and services a profile can enable, with their ids; public, cached and paged.',
  devices:
    'The devices a profile’s resolvers have seen (named through DoT/DoH device names or linked addresses): list, rename, annotate and forget.',
  'linked-ips':
    'Addresses linked to a profile so that its plain DNS (IPv4 anycast) queries resolve with it, fixed or kept current through a dynamic-DNS update URL.',
  'list-reports':
    'Reports that a blocklist blocks something it should not, or misses something it should, filed against a profile and answered by the operators.',
  logs: 'A profile’s query log: paged, filtered searches and a live stream of new queries (server-sent events), from the cloud store or relayed from its self-hosted nodes (scope logs:read).',
  meta: 'The service itself: version and environment, capabilities and limits, points of presence, the caller’s address, and this OpenAPI document.',
  nodes:
    'Self-hosted resolver nodes of a profile: create one and enrol it with its code, rotate or revoke its token, and the node-side routes it calls with its own token.',
  organisation:
    'The members of the organisation a credential acts in and their roles (owner, admin, editor, viewer), invitations by email and their acceptance, and the transfer of ownership (docs/roles.md).',
  profiles:
    'Filtering profiles: their security, parental and logging settings, custom rules, enabled blocklists, resolver endpoints and device setup (including Apple configuration profiles).',
  'second factors':
    'Authenticator-app (TOTP) codes, recovery codes and passkeys that protect sign-in, and the restricted session of an account recovery.',
  tokens:
    'API tokens: created and revoked only from a signed-in session, each with the scopes it grants; the secret is shown once.',
};
