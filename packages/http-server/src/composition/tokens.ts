// The lifecycle, the PostgreSQL pool and the use cases are the composition's (@svc/composition); named here
// too for the bindings of this package and for the embedders that import them from the server.
export {
  AccountArchiveCollectorToken,
  AccountDeletionServiceToken,
  ApiTokenServiceToken,
  AuditLogServiceToken,
  ClientErrorServiceToken,
  CursorSealerToken,
  DataExportServiceToken,
  DevicePolicyServiceToken,
  DeviceServiceToken,
  EdgeSimulatorToken,
  FeedbackServiceToken,
  IdempotencyServiceToken,
  IdentityDependenciesToken,
  InvitationServiceToken,
  InviteServiceToken,
  LifecycleToken,
  LinkedIpServiceToken,
  ListPipelineServiceToken,
  ListReportServiceToken,
  ListReportTriageServiceToken,
  LogQueryServiceToken,
  MemberServiceToken,
  NodeServiceToken,
  OperatorBlockServiceToken,
  OperatorSearchServiceToken,
  OperatorViewServiceToken,
  OrganisationMembershipServiceToken,
  PasskeyServiceToken,
  PasswordServiceToken,
  PostgresToken,
  PreferencesServiceToken,
  ProfilePolicyServiceToken,
  ProfileServiceToken,
  ProfileSuspensionServiceToken,
  SecondFactorServiceToken,
  SessionServiceToken,
  SignupServiceToken,
  SourceBlockServiceToken,
  WebhookDispatcherToken,
  WebhookServiceToken,
} from '@svc/composition';

/** Service identifiers of the HTTP server that are not domain ports. */
export const SettingsToken = Symbol.for('svc.Settings');
export const LoggerToken = Symbol.for('svc.Logger');

/** Background jobs of the API server, bound in server-jobs.bindings.ts (started by the server as {@link ServerJob}s). */
export const AccountErasureSchedulerToken = Symbol.for('svc.AccountErasureScheduler');
export const OperatorExpirySchedulerToken = Symbol.for('svc.OperatorExpiryScheduler');
export const DataExportSchedulerToken = Symbol.for('svc.DataExportScheduler');
export const ListRefreshSchedulerToken = Symbol.for('svc.ListRefreshScheduler');
export const WebhookDeliverySchedulerToken = Symbol.for('svc.WebhookDeliveryScheduler');

/** Self-hosted nodes' links, bound in node-links.bindings.ts. */
export const NodeLinkHubToken = Symbol.for('svc.NodeLinkHub');
export const NodeAlertSchedulerToken = Symbol.for('svc.NodeAlertScheduler');
/** The offline hold's expiry and delivery scheduler. */
export const NodeLogHoldSchedulerToken = Symbol.for('svc.NodeLogHoldScheduler');
