import type { SvcClient } from './client.js';

/**
 * The dotted path of every method of the client, as far down as its resources go (`'profiles.create'`,
 * `'profiles.linkedIps.ddnsUrl'`), so that {@link OPERATIONS} cannot name a method that does not exist.
 */
export type ClientMethodPath<Node = SvcClient, Prefix extends string = ''> = {
  [Key in keyof Node & string]: Node[Key] extends (...args: never[]) => unknown
    ? `${Prefix}${Key}`
    : Node[Key] extends object
      ? ClientMethodPath<Node[Key], `${Prefix}${Key}.`>
      : never;
}[keyof Node & string];

/**
 * Every operation of the API's OpenAPI document (by operationId) and the client method that calls it. An
 * end-to-end test reads the served document and fails when an operation has no entry here, so that a new
 * route cannot ship without its SDK method; the type checks that every entry names a real method.
 */
export const OPERATIONS = {
  // Deployment facts (spec 4.12)
  getMeta: 'meta.get',
  getCapabilities: 'meta.capabilities',
  listPops: 'meta.pops',
  getCallerIp: 'meta.ip',
  getOpenApiDocument: 'meta.openApiYaml',
  // Catalogues (spec 4.7)
  listBlocklists: 'catalogue.lists',
  listParentalServices: 'catalogue.parentalServices',
  listParentalCategories: 'catalogue.parentalCategories',
  // Signup, sign-in and the account (spec 4.8)
  getSignupMode: 'auth.signupMode',
  signup: 'auth.signup',
  verifyEmail: 'auth.verify',
  resendVerification: 'auth.resendVerification',
  login: 'auth.login',
  logout: 'auth.logout',
  getCurrentAccount: 'auth.me',
  getSignInStatus: 'auth.status',
  deleteCurrentAccount: 'auth.deleteAccount',
  undeleteCurrentAccount: 'auth.undelete',
  changePassword: 'auth.changePassword',
  requestPasswordReset: 'auth.requestPasswordReset',
  confirmPasswordReset: 'auth.confirmPasswordReset',
  listSessions: 'auth.sessions.list',
  revokeOtherSessions: 'auth.sessions.revokeOthers',
  revokeSession: 'auth.sessions.revoke',
  joinWaitlist: 'waitlist.join',
  confirmWaitlist: 'waitlist.confirm',
  // Second factors and recovery (spec 5.4, 5.5)
  getTotpStatus: 'auth.totp.status',
  startTotpEnrolment: 'auth.totp.start',
  confirmTotpEnrolment: 'auth.totp.confirm',
  disableTotp: 'auth.totp.disable',
  countRecoveryCodes: 'auth.recoveryCodes.remaining',
  replaceRecoveryCodes: 'auth.recoveryCodes.replace',
  requestAccountRecovery: 'auth.recovery.request',
  confirmAccountRecovery: 'auth.recovery.confirm',
  listPasskeys: 'auth.passkeys.list',
  renamePasskey: 'auth.passkeys.rename',
  deletePasskey: 'auth.passkeys.delete',
  startPasskeyRegistration: 'auth.passkeys.registrationOptions',
  registerPasskey: 'auth.passkeys.register',
  startPasskeySignIn: 'auth.passkeys.authenticationOptions',
  signInWithPasskey: 'auth.passkeys.authenticate',
  // API tokens (spec 4.9)
  listTokens: 'tokens.list',
  createToken: 'tokens.create',
  revokeToken: 'tokens.revoke',
  // Signed webhooks (issue 40)
  listWebhooks: 'webhooks.list',
  createWebhook: 'webhooks.create',
  getWebhook: 'webhooks.get',
  updateWebhook: 'webhooks.update',
  deleteWebhook: 'webhooks.delete',
  rotateWebhookSecret: 'webhooks.rotateSecret',
  pingWebhook: 'webhooks.test',
  listWebhookDeliveries: 'webhooks.deliveries',
  redeliverWebhook: 'webhooks.redeliver',
  listMembers: 'org.members.list',
  updateMemberRole: 'org.members.updateRole',
  removeMember: 'org.members.remove',
  transferOwnership: 'org.transferOwnership',
  listInvitations: 'org.invitations.list',
  createInvitation: 'org.invitations.create',
  revokeInvitation: 'org.invitations.revoke',
  acceptInvitation: 'org.invitations.accept',
  listMyOrganisations: 'auth.organisations.list',
  switchOrganisation: 'auth.organisations.switchTo',
  leaveOrganisation: 'auth.organisations.leave',
  // Profiles (spec 4.2)
  createProfile: 'profiles.create',
  listProfiles: 'profiles.list',
  getProfile: 'profiles.get',
  updateProfile: 'profiles.update',
  deleteProfile: 'profiles.delete',
  getProfileRules: 'profiles.rules.get',
  replaceProfileRules: 'profiles.rules.replace',
  getProfileLists: 'profiles.lists.get',
  replaceProfileLists: 'profiles.lists.replace',
  getProfileSchedules: 'profiles.schedules.get',
  replaceProfileSchedules: 'profiles.schedules.replace',
  listProfileAllowances: 'profiles.allowances.list',
  createProfileAllowance: 'profiles.allowances.create',
  deleteProfileAllowance: 'profiles.allowances.delete',
  getProfileSetup: 'profiles.setup',
  getProfileAppleConfiguration: 'profiles.appleConfiguration',
  pauseProfile: 'profiles.pause',
  resumeProfile: 'profiles.resume',
  // Linked IPs and DDNS (spec 4.4)
  listLinkedIps: 'profiles.linkedIps.list',
  createLinkedIp: 'profiles.linkedIps.create',
  getLinkedIp: 'profiles.linkedIps.get',
  deleteLinkedIp: 'profiles.linkedIps.delete',
  getDdnsUpdateUrl: 'profiles.linkedIps.ddnsUrl',
  rotateDdnsUpdateUrl: 'profiles.linkedIps.rotateDdns',
  updateDdns: 'ddns.update',
  // Self-hosted nodes (spec 4.13)
  listNodes: 'profiles.nodes.list',
  createNode: 'profiles.nodes.create',
  getNode: 'profiles.nodes.get',
  revokeNode: 'profiles.nodes.revoke',
  enrolNode: 'nodes.enrol',
  getNodeSelf: 'nodes.self.get',
  revokeNodeSelf: 'nodes.self.revoke',
  rotateNodeToken: 'nodes.self.rotateToken',
  getNodeProfile: 'nodes.self.profile',
  getNodeLists: 'nodes.self.lists',
  downloadNodeListArtifact: 'nodes.self.listArtifact',
  openNodeLink: 'nodes.self.link',
  // Devices (spec 4.3)
  listDevices: 'profiles.devices.list',
  getDevice: 'profiles.devices.get',
  updateDevice: 'profiles.devices.update',
  forgetDevice: 'profiles.devices.forget',
  getDevicePolicy: 'profiles.devices.policy.get',
  replaceDevicePolicy: 'profiles.devices.policy.replace',
  pauseDevice: 'profiles.devices.pause',
  resumeDevice: 'profiles.devices.resume',
  // Query logs and analytics (spec 2.11, 4.6)
  queryLogs: 'profiles.logs.query',
  streamLogs: 'profiles.logs.stream',
  queryAnalytics: 'profiles.analytics.query',
  // List reports (spec 4.5)
  createListReport: 'profiles.listReports.create',
  listListReports: 'profiles.listReports.list',
  // Preferences, audit log, dashboard error reports and feedback (spec 2.2, 4.8, 4.11, 6.2)
  getPreferences: 'auth.preferences.get',
  updatePreferences: 'auth.preferences.update',
  listAuditEntries: 'auth.audit.list',
  // Data exports (ROUTES.md "Sign-in and account")
  startDataExport: 'auth.exports.create',
  listDataExports: 'auth.exports.list',
  getDataExport: 'auth.exports.get',
  downloadDataExport: 'auth.exports.download',
  reportClientError: 'clientErrors.report',
  sendFeedback: 'feedback.send',
  // Operator routes (spec 4.10, ROUTES.md "Operator")
  listOperatorBlocks: 'admin.operatorBlocks.list',
  createOperatorBlock: 'admin.operatorBlocks.create',
  removeOperatorBlock: 'admin.operatorBlocks.remove',
  listSourceBlocks: 'admin.sourceBlocks.list',
  createSourceBlock: 'admin.sourceBlocks.create',
  removeSourceBlock: 'admin.sourceBlocks.remove',
  searchProfiles: 'admin.profiles.search',
  getProfileSuspension: 'admin.profiles.get',
  updateProfileSuspension: 'admin.profiles.update',
  searchAccounts: 'admin.accounts.search',
  deleteAccountOnBehalf: 'admin.accounts.delete',
  cancelAccountDeletionOnBehalf: 'admin.accounts.undelete',
  listTriageQueue: 'admin.listReports.list',
  decideListReport: 'admin.listReports.decide',
  listCompilerSources: 'admin.lists.sources',
  listListBuilds: 'admin.lists.versions',
  listAllAuditEntries: 'admin.audit.list',
  listAllClientErrors: 'admin.clientErrors.list',
  listAllFeedback: 'admin.feedback.list',
} as const satisfies Record<string, ClientMethodPath>;

/** An operationId the SDK knows. */
export type OperationId = keyof typeof OPERATIONS;
