import { STATUS_CODES } from 'node:http';
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { API_VERSION, Problem } from '@svc/domain';
import { z } from 'zod';
import type { AnyRoute } from '../routes/route-definition.js';

const SECURITY: Record<AnyRoute['auth'], Record<string, string[]>[]> = {
  none: [],
  account: [{ session: [] }, { apiToken: [] }],
  session: [{ session: [] }],
  node: [{ nodeToken: [] }],
};

/** Security schemes, registered only when an operation uses them (the linter refuses unused components). */
const SECURITY_SCHEMES = {
  session: { type: 'apiKey', in: 'cookie', name: 'svc_session' },
  apiToken: { type: 'http', scheme: 'bearer', description: 'API token `svc_<52 characters>`.' },
  nodeToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'Node token `svcnode_…`, accepted only by node endpoints.',
  },
} as const;

/** Every problem status an operation can answer, derived from what the route declares. */
export function errorStatusesOf(route: AnyRoute): number[] {
  const statuses = new Set<number>([400, 500, 503, ...(route.errorStatuses ?? [])]);
  if (
    route.request?.params !== undefined ||
    route.request?.query !== undefined ||
    route.request?.body !== undefined
  ) {
    statuses.add(422);
  }
  if (route.request?.params !== undefined) statuses.add(404);
  if (route.request?.body !== undefined) statuses.add(415);
  if (route.auth === 'none') statuses.add(429);
  else statuses.add(401);
  if (route.auth === 'account' || route.auth === 'session') statuses.add(403);
  // The unauthenticated /v1/auth writes refuse a foreign Origin (spec 5.2.4).
  if (route.auth === 'none' && route.method !== 'get' && route.path.startsWith('/v1/auth/'))
    statuses.add(403);
  if (route.idempotent === true) statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}

/** The generated document. */
export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** The OpenAPI 3.1 document of `routes`, generated from their zod schemas (the single source of truth). */
export function buildOpenApiDocument(routes: readonly AnyRoute[], baseUrl: string): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  const used = new Set(
    routes.flatMap((route) => SECURITY[route.auth].flatMap((requirement) => Object.keys(requirement))),
  );
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
    if (used.has(name)) registry.registerComponent('securitySchemes', name, scheme);
  }
  const problemContent = { 'application/problem+json': { schema: Problem } };
  for (const route of routes) {
    const responses: Record<string, ResponseConfig> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      responses[status] = {
        description: response.description,
        ...(response.headers === undefined ? {} : { headers: response.headers }),
        ...(response.schema === undefined
          ? {}
          : { content: { [response.contentType ?? 'application/json']: { schema: response.schema } } }),
      };
    }
    for (const status of errorStatusesOf(route)) {
      responses[String(status)] = { description: STATUS_CODES[status] ?? 'Error', content: problemContent };
    }
    const body = route.request?.body;
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description === undefined ? {} : { description: route.description }),
      tags: route.tags,
      security: SECURITY[route.auth],
      ...(route.deprecated === true ? { deprecated: true } : {}),
      request: {
        ...(route.request?.params instanceof z.ZodObject ? { params: route.request.params } : {}),
        ...(route.request?.query instanceof z.ZodObject ? { query: route.request.query } : {}),
        ...(body === undefined
          ? {}
          : { body: { required: true, content: { 'application/json': { schema: body } } } }),
        ...(route.idempotent === true
          ? {
              headers: z.object({
                'Idempotency-Key': z.string().min(1).max(255).optional().meta({
                  description: '1 to 255 visible ASCII characters; replays the first success for 24 h.',
                }),
              }),
            }
          : {}),
      },
      responses,
    });
  }
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'svc control-plane API',
      version: API_VERSION,
      description:
        'Accounts, API tokens, DNS filtering profiles, devices, self-hosted nodes, query logs and analytics.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: baseUrl }],
    tags: [...new Set(routes.flatMap((route) => route.tags))]
      .sort()
      .map((name) => ({ name, description: name })),
  });
}

/** The document as served at GET /v1/openapi.yaml; the YAML library loads with the first request for it. */
export async function openApiYaml(document: OpenApiDocument): Promise<string> {
  const { stringify } = await import('yaml');
  return stringify(document, { aliasDuplicateObjects: false });
}
