import type { AuditAction } from '@svc/sdk';

/** The account's plan, by the name the API gives it; a plan unknown here shows as the API names it. */
const PLANS: Readonly<Record<string, string>> = { free: 'Free' };

/** What a data export's state means to the person; a later state unknown here shows as the API names it. */
const EXPORT_STATUSES: Readonly<Record<string, string>> = {
  pending: 'Being prepared',
  ready: 'Ready',
  failed: 'Failed',
  expired: 'Expired',
};

/**
 * What each audit action did, in words. Every action the SDK lists must have its words (tsc says which one is
 * missing); an entry of a later API whose action is unknown here shows as the API names it.
 */
const AUDIT_ACTIONS = {
  'device.update': 'Device changed',
  'device.forget': 'Device forgotten',
  'account.deletion_canceled': 'Account deletion cancelled',
  'admin.deletion_canceled': 'Account deletion cancelled by an operator',
  'account.preferences_updated': 'Preferences changed',
  'admin.source_block_removed': 'Source block removed',
  'session.created': 'Signed in',
  'token.created': 'API token created',
  'token.revoked': 'API token revoked',
  'account.password_changed': 'Password changed',
  'account.second_factor_changed': 'Sign-in security changed',
  'profile.deleted': 'Profile deleted',
  'profile.paused': 'Profile filtering paused',
  'profile.resumed': 'Profile filtering resumed',
  'profile.allowance_created': 'Timed allowance started',
  'profile.allowance_ended': 'Timed allowance ended',
  'device.policy_replaced': 'Device rules changed',
  'device.paused': 'Device filtering paused',
  'device.resumed': 'Device filtering resumed',
  'node.created': 'Node added',
  'node.enrolled': 'Node enrolled',
  'node.token_rotated': 'Node credential renewed',
  'node.revoked': 'Node removed',
  'admin.operator_block_created': 'Operator block added',
  'admin.operator_block_removed': 'Operator block removed',
  'admin.source_block_created': 'Source block added',
  'admin.profile_suspended': 'Profile suspended',
  'admin.profile_reinstated': 'Profile reinstated',
  'admin.deletion_requested': 'Account deletion requested by an operator',
  'admin.list_report_resolved': 'List report decided',
  'member.invited': 'Member invited',
  'member.invitation_revoked': 'Invitation withdrawn',
  'member.joined': 'Member joined',
  'member.role_changed': 'Member’s role changed',
  'member.removed': 'Member removed',
  'member.ownership_transferred': 'Organisation handed over',
} as const satisfies Record<AuditAction, string>;
const AUDIT_ACTION_WORDS: Readonly<Partial<Record<string, string>>> = AUDIT_ACTIONS;

/** The account area: the overview, email alerts, deletion, data exports, API tokens and the audit log. */
export const account = {
  'account.tabs.navigation': 'Account',
  'account.tabs.overview': 'Overview',
  'account.tabs.security': 'Sign-in and security',
  'account.tabs.tokens': 'API tokens',
  'account.tabs.members': 'Members',
  'account.tabs.audit': 'Audit log',

  // The overview.
  'account.overview.title': 'Your account',
  'account.overview.email': 'Email address',
  'account.overview.notVerified': '(not verified yet)',
  'account.overview.verified': '(verified)',
  'account.overview.plan': 'Plan',
  'account.overview.planName': (p: { plan: string }) => PLANS[p.plan] ?? p.plan,
  'account.overview.secondFactor': 'Second factor',
  'account.overview.memberSince': 'Member since',
  'account.preferences.title': 'Email alerts',
  'account.preferences.nodeOffline': 'Email me when a self-hosted node goes offline or comes back',
  'account.preferences.saved': 'Email alerts saved.',

  // Deleting the account.
  'account.deletion.pendingTitle': 'Your account is being deleted',
  'account.deletion.askedOn': 'You asked on',
  'account.deletion.erasedOn': 'Everything in it will be erased on',
  'account.deletion.changeMind': 'Until then you can change your mind.',
  'account.deletion.cancel': 'Cancel the deletion',
  'account.deletion.canceled': 'The deletion is cancelled: your account and profiles are back.',
  'account.deletion.title': 'Delete your account',
  'account.deletion.intro':
    'Your profiles, logs, tokens and settings are erased after a cooling-off period, during which you can cancel from this page. You will see the date once you ask.',
  'account.deletion.understood': 'I understand that everything in my account will be erased',
  'account.deletion.submit': 'Delete my account',

  // Data exports.
  'account.exports.title': 'Your data',
  'account.exports.intro':
    'Download everything svc holds about your account and its profiles, as JSON lines.',
  'account.exports.start': 'Export my data',
  'account.exports.started': 'Your export is being prepared: it appears below when it is ready.',
  'account.exports.caption': 'Exports',
  'account.exports.asked': 'Asked',
  'account.exports.status': 'Status',
  'account.exports.availableUntil': 'Available until',
  'account.exports.download': 'Download',
  'account.exports.downloadOf': (p: { asked: string }) => `Download the export of ${p.asked}`,
  'account.exports.noDownload': '—',
  'account.exports.statusName': (p: { status: string }) => EXPORT_STATUSES[p.status] ?? p.status,

  // API tokens.
  'account.tokens.title': 'API tokens',
  'account.tokens.intro':
    'A token lets a script or an integration use the API as you, within the scopes you choose. Treat it like a password.',
  'account.tokens.secretTitle': (p: { name: string }) => `Your new token ${p.name}`,
  'account.tokens.secretOnce': 'Copy it now: it is shown only this once.',
  'account.tokens.secret': 'Token secret',
  'account.tokens.copy': 'Copy the token',
  'account.tokens.create': 'Create a token',
  'account.tokens.name': 'Token name',
  'account.tokens.nameHint': 'What uses it, for example Home Assistant.',
  'account.tokens.scopes': 'Scopes',
  'account.tokens.expiresAt': 'Expires on',
  'account.tokens.expiresAtHint': 'Optional: leave empty for a token that does not expire.',
  'account.tokens.fieldError': 'Error: ',
  'account.tokens.submit': 'Create token',
  'account.tokens.yours': 'Your tokens',
  'account.tokens.none': 'You have no API token.',
  'account.tokens.caption': 'API tokens',
  'account.tokens.startsWith': 'Starts with',
  'account.tokens.lastUsed': 'Last used',
  'account.tokens.expires': 'Expires',
  'account.tokens.action': 'Action',
  'account.tokens.never': 'never',
  'account.tokens.prefix': (p: { prefix: string }) => `${p.prefix}…`,
  'account.tokens.revoke': 'Revoke',
  'account.tokens.revokeNamed': (p: { name: string }) => `Revoke ${p.name}`,
  'account.tokens.revokeYes': (p: { name: string }) => `Yes, revoke ${p.name}`,
  'account.tokens.revokeWarning':
    'Whatever uses this token stops working at once; a revoked token cannot be brought back.',
  'account.tokens.revoked': (p: { name: string }) => `Token ${p.name} revoked: it no longer works.`,
  'account.tokens.scope.profilesRead': 'Read profiles, rules, lists, linked IPs and nodes',
  'account.tokens.scope.profilesWrite': 'Change profiles; create and revoke nodes; link addresses',
  'account.tokens.scope.accountRead': "List the account's tokens and read the audit log",
  'account.tokens.scope.logsRead': 'Read query logs and the live stream',
  'account.tokens.scope.analyticsRead': 'Read analytics',
  'account.tokens.scope.webhooksRead': 'Read webhook endpoints and their deliveries',
  'account.tokens.scope.webhooksWrite': 'Add, change and remove webhook endpoints; test and redeliver',
  'account.tokens.scope.admin': 'Operator routes (needs a strong sign-in)',

  // The audit log.
  'account.audit.title': 'Audit log',
  'account.audit.intro': "Every change to your organisation's account, tokens and profiles, newest first.",
  'account.audit.empty': 'Nothing recorded yet.',
  'account.audit.caption': 'Audit entries',
  'account.audit.when': 'When',
  'account.audit.action': 'Action',
  'account.audit.by': 'By',
  'account.audit.on': 'On',
  'account.audit.from': 'From',
  'account.audit.details': 'Details',
  'account.audit.noAddress': '—',
  'account.audit.older': 'Show older entries',
  'account.audit.byNode': 'A node',
  'account.audit.byOperator': 'The svc operators',
  'account.audit.byUnknown': 'Someone no longer here',
  'account.audit.actionName': (p: { action: string }) => AUDIT_ACTION_WORDS[p.action] ?? p.action,
  'account.audit.viaToken': (p: { email: string }) => `${p.email} (API token)`,
} as const;
