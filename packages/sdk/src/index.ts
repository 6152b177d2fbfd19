export type {
  Account,
  AdminAuditEntry,
  AnalyticsShape,
  Blocklist,
  BlocklistCatalogue,
  CallerIp,
  Capabilities,
  Capability,
  CompilerSourceList,
  DdnsUpdate,
  DdnsUpdateUrl,
  Device,
  LinkedIp,
  ListBuildList,
  ListReport,
  ListReportAccepted,
  LoginRequest,
  Meta,
  Node,
  NodeCreated,
  NodeEnrol,
  NodeEnrolled,
  NodeLinkInfo,
  NodeProfileDocument,
  NodeTokenRotated,
  OperatorBlock,
  OperatorBlockChange,
  OperatorClientError,
  OperatorFeedback,
  ParentalCategory,
  ParentalCategoryCatalogue,
  ParentalService,
  PasswordChangeRequest,
  Pop,
  PopList,
  Problem,
  ProblemCode,
  Profile,
  ProfilePublicKey,
  ProfileRules,
  ProfileSuspension,
  QueryColumn,
  QueryResult,
  QueryStatus,
  Scope,
  SessionRecord,
  Setup,
  SignupMode,
  SignupRequest,
  SourceBlock,
  SourceBlockChange,
  TokenCreate,
  TokenRecord,
  TriagedListReport,
} from '@svc/domain';
/** The exact text a node profile signature covers (spec 4.13), for nodes that verify documents. */
export { profileSignaturePayload } from '@svc/domain/profile-signature';
export type * from './account-feedback.types.js';
export type * from './admin.types.js';
export * from './api-promise.js';
export * from './client.js';
export type * from './data-export.types.js';
export * from './errors.js';
export * from './etag.js';
export type * from './identity.types.js';
export * from './open-enum.js';
export * from './operations.js';
export * from './pagination.js';
export type * from './profiles.types.js';
export * from './query-results.js';
export * from './resources/admin/admin.resource.js';
export * from './resources/admin/admin-accounts.resource.js';
export * from './resources/admin/admin-list-reports.resource.js';
export * from './resources/admin/admin-views.resource.js';
export * from './resources/admin/operator-blocks.resource.js';
export * from './resources/admin/profile-suspensions.resource.js';
export * from './resources/admin/source-blocks.resource.js';
export * from './resources/auth/audit.resource.js';
export * from './resources/auth/auth.resource.js';
export * from './resources/auth/exports.resource.js';
export * from './resources/auth/preferences.resource.js';
export * from './resources/auth/recovery.resource.js';
export * from './resources/auth/recovery-codes.resource.js';
export * from './resources/auth/sessions.resource.js';
export * from './resources/auth/totp.resource.js';
export * from './resources/catalogue.resource.js';
export * from './resources/client-errors.resource.js';
export * from './resources/ddns.resource.js';
export * from './resources/feedback.resource.js';
export * from './resources/meta.resource.js';
export * from './resources/nodes.resource.js';
export * from './resources/profiles/devices.resource.js';
export * from './resources/profiles/linked-ips.resource.js';
export * from './resources/profiles/list-reports.resource.js';
export * from './resources/profiles/nodes.resource.js';
export * from './resources/profiles/profile-lists.resource.js';
export * from './resources/profiles/profile-rules.resource.js';
export * from './resources/profiles/profiles.resource.js';
export * from './resources/profiles/query-log.resource.js';
export * from './resources/tokens.resource.js';
export * from './resources/waitlist.resource.js';
export type * from './second-factor.types.js';
export type { ApiRequest, ApiResponse, ClientOptions, CreateOptions, RequestOptions } from './transport.js';
