/** Service identifiers of the use cases (domain services wired to their ports by {@link useCaseModules}). */

export const IdempotencyServiceToken = Symbol.for('svc.IdempotencyService');
export const CursorSealerToken = Symbol.for('svc.CursorSealer');
/** What every identity use case is built on (the stores, hashing, limits and the identity settings). */
export const IdentityDependenciesToken = Symbol.for('svc.IdentityDependencies');

/** Identity use cases, bound in identity.module.ts. */
export const SignupServiceToken = Symbol.for('svc.SignupService');
export const SessionServiceToken = Symbol.for('svc.SessionService');
export const PasswordServiceToken = Symbol.for('svc.PasswordService');
/** The API token service; the server binds its caching one here before the use cases load. */
export const ApiTokenServiceToken = Symbol.for('svc.ApiTokenService');
export const InviteServiceToken = Symbol.for('svc.InviteService');
export const SecondFactorServiceToken = Symbol.for('svc.SecondFactorService');
export const PasskeyServiceToken = Symbol.for('svc.PasskeyService');
/** Members, invitations and the organisations of an account (issue 39), bound in identity.module.ts. */
export const MemberServiceToken = Symbol.for('svc.MemberService');
export const InvitationServiceToken = Symbol.for('svc.InvitationService');
export const OrganisationMembershipServiceToken = Symbol.for('svc.OrganisationMembershipService');
export const ProfileServiceToken = Symbol.for('svc.ProfileService');
export const LinkedIpServiceToken = Symbol.for('svc.LinkedIpService');
export const ProfilePolicyServiceToken = Symbol.for('svc.ProfilePolicyService');
export const DeviceServiceToken = Symbol.for('svc.DeviceService');
export const DevicePolicyServiceToken = Symbol.for('svc.DevicePolicyService');
/** Log and analytics queries, bound in query-log.module.ts. */
export const LogQueryServiceToken = Symbol.for('svc.LogQueryService');
/** The columnar store's log reader, or null without one (memory storage). */
export const OptionalQueryLogReaderToken = Symbol.for('svc.OptionalQueryLogReader');
export const ListReportServiceToken = Symbol.for('svc.ListReportService');
/** Preferences, audit log reads, dashboard error reports and feedback, bound in account-feedback.module.ts. */
export const PreferencesServiceToken = Symbol.for('svc.PreferencesService');
export const AuditLogServiceToken = Symbol.for('svc.AuditLogService');
export const ClientErrorServiceToken = Symbol.for('svc.ClientErrorService');
export const FeedbackServiceToken = Symbol.for('svc.FeedbackService');

/** Account deletion with cooling-off, bound in account-deletion.module.ts. */
export const AccountDeletionServiceToken = Symbol.for('svc.AccountDeletionService');

/** Operator surface (spec 4.10), bound in operator.module.ts. */
export const OperatorBlockServiceToken = Symbol.for('svc.OperatorBlockService');
export const SourceBlockServiceToken = Symbol.for('svc.SourceBlockService');
export const ProfileSuspensionServiceToken = Symbol.for('svc.ProfileSuspensionService');
export const ListReportTriageServiceToken = Symbol.for('svc.ListReportTriageService');
export const OperatorViewServiceToken = Symbol.for('svc.OperatorViewService');
export const OperatorSearchServiceToken = Symbol.for('svc.OperatorSearchService');

/** GDPR data exports and their archive collector, bound in data-export.module.ts. */
export const DataExportServiceToken = Symbol.for('svc.DataExportService');
export const AccountArchiveCollectorToken = Symbol.for('svc.AccountArchiveCollector');

/** Self-hosted nodes' use cases, bound in node.module.ts (their link hub is the HTTP server's). */
export const NodeServiceToken = Symbol.for('svc.NodeService');

/** The list pipeline, bound in list-pipeline.module.ts. */
export const ListPipelineServiceToken = Symbol.for('svc.ListPipelineService');

/** The edge simulator of `svc simulate`, or null without a columnar store to write into (memory storage). */
export const EdgeSimulatorToken = Symbol.for('svc.EdgeSimulator');

/** Webhook endpoints and their delivery, bound in webhook.module.ts. */
export const WebhookServiceToken = Symbol.for('svc.WebhookService');
export const WebhookDispatcherToken = Symbol.for('svc.WebhookDispatcher');
