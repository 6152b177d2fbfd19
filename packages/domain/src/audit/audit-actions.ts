/**
 * Audit actions named by spec 6.2, and those this service adds for other audited changes. An entry's action
 * is always one of these, so a typo cannot create a new action nobody filters on. A module of its own, with no
 * import, so that the SDK can bundle the list (`@svc/domain/audit-actions`) for clients that offer it as a filter.
 */
export const AuditActions = [
  'device.update',
  'device.forget',
  'account.deletion_canceled',
  'admin.deletion_canceled',
  'account.preferences_updated',
  'admin.source_block_removed',
  'session.created',
  'token.created',
  'token.revoked',
  'account.password_changed',
  'account.second_factor_changed',
  'profile.deleted',
  'profile.paused',
  'profile.resumed',
  'profile.allowance_created',
  'profile.allowance_ended',
  'device.policy_replaced',
  'device.paused',
  'device.resumed',
  'node.created',
  'node.enrolled',
  'node.token_rotated',
  'node.revoked',
  'admin.operator_block_created',
  'admin.operator_block_removed',
  'admin.source_block_created',
  'admin.profile_suspended',
  'admin.profile_reinstated',
  'admin.deletion_requested',
  'admin.list_report_resolved',
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.ownership_transferred',
] as const;
export type AuditAction = (typeof AuditActions)[number];
