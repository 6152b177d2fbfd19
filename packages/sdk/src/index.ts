export type {
  Account,
  Blocklist,
  BlocklistCatalogue,
  CallerIp,
  Capabilities,
  Capability,
  DdnsUpdate,
  DdnsUpdateUrl,
  Device,
  LinkedIp,
  ListReport,
  ListReportAccepted,
  LoginRequest,
  Meta,
  ParentalCategory,
  ParentalCategoryCatalogue,
  ParentalService,
  PasswordChangeRequest,
  Pop,
  PopList,
  Problem,
  ProblemCode,
  Profile,
  ProfileRules,
  Scope,
  SessionRecord,
  Setup,
  SignupMode,
  SignupRequest,
  TokenCreate,
  TokenRecord,
} from '@svc/domain';
export type * from './account-feedback.types.js';
export * from './api-promise.js';
export * from './client.js';
export * from './errors.js';
export * from './etag.js';
export type * from './identity.types.js';
export * from './operations.js';
export * from './pagination.js';
export type * from './profiles.types.js';
export * from './resources/auth/audit.resource.js';
export * from './resources/auth/auth.resource.js';
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
export * from './resources/profiles/devices.resource.js';
export * from './resources/profiles/linked-ips.resource.js';
export * from './resources/profiles/list-reports.resource.js';
export * from './resources/profiles/profile-lists.resource.js';
export * from './resources/profiles/profile-rules.resource.js';
export * from './resources/profiles/profiles.resource.js';
export * from './resources/tokens.resource.js';
export * from './resources/waitlist.resource.js';
export type * from './second-factor.types.js';
export type { ApiRequest, ApiResponse, ClientOptions, CreateOptions } from './transport.js';
