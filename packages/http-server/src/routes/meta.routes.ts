import type { Settings } from '@svc/composition';
import { API_VERSION, CallerIp, Capabilities, Meta, POP_CATALOGUE, PopList } from '@svc/domain';
import { z } from 'zod';
import { ipVersion } from '../http/client-ip.js';
import { type AnyRoute, defineRoute } from './route-definition.js';

/** What the meta routes need to know about the deployment. */
export interface MetaRouteDependencies {
  settings: Pick<Settings, 'env' | 'http' | 'queryLogs' | 'accounts'>;
  /** The served OpenAPI document in YAML, written on first use (it lists these routes too, hence the thunk). */
  openApiYaml: () => Promise<string>;
  /** Whether a columnar store is configured (logs from the cloud store). */
  columnarStore: boolean;
  /** Attribution the GeoIP database licence asks for; empty without a database. */
  geoipAttribution: string;
}

/** Deployment facts, capabilities, PoP catalogue, caller IP and the OpenAPI document (spec 4.12, 4.13). */
export function metaRoutes(deps: MetaRouteDependencies): AnyRoute[] {
  const meta: Meta = {
    api_version: API_VERSION,
    environment: deps.settings.env,
    base_url: deps.settings.http.baseUrl,
    openapi_url: `${deps.settings.http.baseUrl}/v1/openapi.yaml`,
    log_regions: ['ca'],
    geoip_attribution: deps.geoipAttribution,
  };
  const noGeoip =
    deps.settings.queryLogs.geoipDb === undefined
      ? 'no GeoIP database is configured on this deployment'
      : undefined;
  const capabilities: Capabilities = {
    settings: {
      'settings.log_region': {
        ca: { supported: true },
        eu: { supported: false, reason: 'logs are stored in Canada only; an EU region is not offered yet' },
      },
      'settings.log_destination': {
        cloud: deps.columnarStore
          ? { supported: true }
          : { supported: false, reason: 'no columnar log store is configured' },
        both: deps.columnarStore
          ? { supported: true }
          : { supported: false, reason: 'no columnar log store is configured' },
        'self-hosted': { supported: true },
        none: { supported: true },
      },
      'settings.block_mode': {
        nxdomain: { supported: true },
        refused: { supported: true },
        null: { supported: true },
        'block-page': { supported: true },
      },
      'settings.ecs': {
        off: { supported: true },
        anonymised: { supported: true },
        full: { supported: true },
      },
    },
    features: {
      destinations_map: noGeoip === undefined ? { supported: true } : { supported: false, reason: noGeoip },
      list_reports: { supported: true },
      cloud_logs: deps.columnarStore
        ? { supported: true }
        : { supported: false, reason: 'no columnar log store is configured' },
    },
    account_deletion: { cooling_off_days: deps.settings.accounts.deletionCoolingOffDays },
  };
  const pops: PopList = { pops: [...POP_CATALOGUE] };

  return [
    defineRoute({
      method: 'get',
      path: '/v1/meta',
      operationId: 'getMeta',
      summary: 'Deployment facts',
      tags: ['meta'],
      auth: 'none',
      responses: {
        200: { description: 'Deployment facts, including api_version and geoip_attribution.', schema: Meta },
      },
      handler: async () => ({ status: 200, body: meta }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/capabilities',
      operationId: 'getCapabilities',
      summary: 'Settings values and features this deployment supports',
      tags: ['meta'],
      auth: 'none',
      responses: {
        200: { description: 'Capabilities with the reason for anything unsupported.', schema: Capabilities },
      },
      handler: async () => ({ status: 200, body: capabilities }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/pops',
      operationId: 'listPops',
      summary: 'PoP catalogue',
      tags: ['meta'],
      auth: 'none',
      responses: {
        200: {
          description: 'Points of presence sorted by id; cacheable for five minutes.',
          schema: PopList,
          headers: { 'Cache-Control': { description: '`public, max-age=300`', schema: { type: 'string' } } },
        },
      },
      handler: async () => ({ status: 200, body: pops, headers: { 'Cache-Control': 'public, max-age=300' } }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/ip',
      operationId: 'getCallerIp',
      summary: 'The caller’s IP address as the API sees it',
      tags: ['meta'],
      auth: 'none',
      responses: { 200: { description: 'Address and IP version.', schema: CallerIp } },
      handler: async ({ clientIp }) => ({
        status: 200,
        body: { ip: clientIp, version: ipVersion(clientIp) },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/openapi.yaml',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      tags: ['meta'],
      auth: 'none',
      responses: {
        200: { description: 'OpenAPI 3.1 in YAML.', schema: z.string(), contentType: 'application/yaml' },
      },
      handler: async () => ({ status: 200, body: await deps.openApiYaml(), contentType: 'application/yaml' }),
    }),
  ];
}
