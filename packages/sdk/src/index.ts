export type {
  Account,
  CallerIp,
  Capabilities,
  Capability,
  LoginRequest,
  Meta,
  PasswordChangeRequest,
  Pop,
  PopList,
  Problem,
  Scope,
  SessionRecord,
  SignupMode,
  SignupRequest,
  TokenCreate,
  TokenRecord,
} from '@svc/domain';
export * from './client.js';
export * from './errors.js';
export type * from './identity.types.js';
export * from './pagination.js';
export * from './resources/auth/auth.resource.js';
export * from './resources/auth/sessions.resource.js';
export * from './resources/meta.resource.js';
export * from './resources/tokens.resource.js';
export * from './resources/waitlist.resource.js';
export type { ApiRequest, ApiResponse, ClientOptions, CreateOptions } from './transport.js';
