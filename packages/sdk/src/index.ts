export type { CallerIp, Capabilities, Capability, Meta, Pop, PopList, Problem } from '@svc/domain';
export * from './client.js';
export * from './errors.js';
export * from './pagination.js';
export * from './resources/meta.resource.js';
export type { ApiRequest, ApiResponse, ClientOptions } from './transport.js';
