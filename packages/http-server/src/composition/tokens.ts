// The lifecycle and the PostgreSQL pool are the adapter families' (@svc/composition); named here too for the
// bindings of this package and for the embedders that import them from the server.
export { LifecycleToken, PostgresToken } from '@svc/composition';

/** Service identifiers of the composition root that are not domain ports. */
export const SettingsToken = Symbol.for('svc.Settings');
export const LoggerToken = Symbol.for('svc.Logger');
export const IdempotencyServiceToken = Symbol.for('svc.IdempotencyService');
export const CursorSealerToken = Symbol.for('svc.CursorSealer');

/** Identity use cases, bound in identity.bindings.ts. */
export const SignupServiceToken = Symbol.for('svc.SignupService');
export const SessionServiceToken = Symbol.for('svc.SessionService');
export const PasswordServiceToken = Symbol.for('svc.PasswordService');
export const ApiTokenServiceToken = Symbol.for('svc.ApiTokenService');
export const InviteServiceToken = Symbol.for('svc.InviteService');
export const ProfileServiceToken = Symbol.for('svc.ProfileService');
export const LinkedIpServiceToken = Symbol.for('svc.LinkedIpService');
export const DeviceServiceToken = Symbol.for('svc.DeviceService');
/** Log and analytics queries, bound in query-log.bindings.ts. */
export const LogQueryServiceToken = Symbol.for('svc.LogQueryService');
export const ListReportServiceToken = Symbol.for('svc.ListReportService');
export const SecondFactorServiceToken = Symbol.for('svc.SecondFactorService');
export const PasskeyServiceToken = Symbol.for('svc.PasskeyService');
/** Preferences, audit log reads, dashboard error reports and feedback, bound in account-feedback.bindings.ts. */
export const PreferencesServiceToken = Symbol.for('svc.PreferencesService');
export const AuditLogServiceToken = Symbol.for('svc.AuditLogService');
export const ClientErrorServiceToken = Symbol.for('svc.ClientErrorService');
export const FeedbackServiceToken = Symbol.for('svc.FeedbackService');

/** Account deletion with cooling-off and its erasure scheduler, bound in account-deletion.bindings.ts. */
export const AccountDeletionServiceToken = Symbol.for('svc.AccountDeletionService');
export const AccountErasureSchedulerToken = Symbol.for('svc.AccountErasureScheduler');

/** Operator surface (spec 4.10), bound in operator.bindings.ts. */
export const OperatorBlockServiceToken = Symbol.for('svc.OperatorBlockService');
export const SourceBlockServiceToken = Symbol.for('svc.SourceBlockService');
export const ProfileSuspensionServiceToken = Symbol.for('svc.ProfileSuspensionService');
export const OperatorExpirySchedulerToken = Symbol.for('svc.OperatorExpiryScheduler');
export const ListReportTriageServiceToken = Symbol.for('svc.ListReportTriageService');
export const OperatorViewServiceToken = Symbol.for('svc.OperatorViewService');

/** GDPR data exports, their archive collector and their job, bound in data-export.bindings.ts. */
export const DataExportServiceToken = Symbol.for('svc.DataExportService');
export const AccountArchiveCollectorToken = Symbol.for('svc.AccountArchiveCollector');
export const DataExportSchedulerToken = Symbol.for('svc.DataExportScheduler');

/** Self-hosted nodes and their links, bound in node.bindings.ts. */
export const NodeServiceToken = Symbol.for('svc.NodeService');
export const NodeLinkHubToken = Symbol.for('svc.NodeLinkHub');
export const NodeAlertSchedulerToken = Symbol.for('svc.NodeAlertScheduler');
/** The offline hold's expiry and delivery scheduler (engine-backed servers only). */
export const NodeLogHoldSchedulerToken = Symbol.for('svc.NodeLogHoldScheduler');

/** The list pipeline and its refresh schedule, bound in list-pipeline.bindings.ts. */
export const ListPipelineServiceToken = Symbol.for('svc.ListPipelineService');
export const ListRefreshSchedulerToken = Symbol.for('svc.ListRefreshScheduler');
