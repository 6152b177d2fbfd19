import { STATUS_CODES } from 'node:http';
import { API_VERSION, Problem } from '@svc/domain';
import { z } from 'zod';
import type { AnyRoute, HttpMethod } from '../routes/route-definition.js';
import { inputSchema, isNode, type JsonSchema, OutputSchemas } from './json-schema.js';
import { TAG_DESCRIPTIONS } from './openapi-tags.js';
import { webhookOperations } from './openapi-webhooks.js';

const SECURITY: Record<AnyRoute['auth'], Record<string, string[]>[]> = {
  none: [],
  account: [{ session: [] }, { apiToken: [] }],
  session: [{ session: [] }],
  node: [{ nodeToken: [] }],
};

/** Security schemes, registered only when an operation uses them (the linter refuses unused components). */
const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  session: { type: 'apiKey', in: 'cookie', name: 'svc_session' },
  apiToken: { type: 'http', scheme: 'bearer', description: 'API token `svc_<52 characters>`.' },
  nodeToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'Node token `svcnode_…`, accepted only by node endpoints.',
  },
};

const IDEMPOTENCY_KEY = '1 to 255 visible ASCII characters; replays the first success for 24 h.';

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

/** One operation of the document. */
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  deprecated?: true;
  parameters?: JsonSchema[];
  requestBody?: { required: true; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, JsonSchema>;
}

/** The generated document (OpenAPI 3.1). */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  /** What the organisation's webhook endpoints receive (OpenAPI 3.1 `webhooks`). */
  webhooks: Record<string, { post: JsonSchema }>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

/**
 * The parameters of one location from a zod object in input form: each property one parameter, required as
 * the input form says (a defaulted query parameter is optional and shows its default).
 */
function parametersOf(schema: z.ZodType | undefined, location: 'path' | 'query'): JsonSchema[] {
  if (!(schema instanceof z.ZodObject)) return [];
  const object = inputSchema(schema);
  const required = new Set(Array.isArray(object.required) ? object.required.map(String) : []);
  const properties = isNode(object.properties) ? object.properties : {};
  return Object.entries(properties).flatMap(([name, property]) =>
    isNode(property)
      ? [
          {
            name,
            in: location,
            required: location === 'path' || required.has(name),
            ...(typeof property.description === 'string' ? { description: property.description } : {}),
            schema: property,
          },
        ]
      : [],
  );
}

function operationOf(route: AnyRoute, outputs: OutputSchemas): OpenApiOperation {
  const problem = { 'application/problem+json': { schema: outputs.add(Problem) } };
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.headers === undefined ? {} : { headers: response.headers }),
      ...(response.schema === undefined
        ? {}
        : {
            content: {
              [response.contentType ?? 'application/json']: { schema: outputs.add(response.schema) },
            },
          }),
    };
  }
  for (const status of errorStatusesOf(route))
    responses[String(status)] = { description: STATUS_CODES[status] ?? 'Error', content: problem };
  const parameters = [
    ...parametersOf(route.request?.params, 'path'),
    ...parametersOf(route.request?.query, 'query'),
    ...(route.idempotent === true
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: IDEMPOTENCY_KEY,
            schema: { type: 'string', minLength: 1, maxLength: 255, description: IDEMPOTENCY_KEY },
          },
        ]
      : []),
  ];
  const body = route.request?.body;
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: route.tags,
    security: SECURITY[route.auth],
    ...(route.deprecated === true ? { deprecated: true as const } : {}),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(body === undefined
      ? {}
      : { requestBody: { required: true, content: { 'application/json': { schema: inputSchema(body) } } } }),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of `routes`, generated from their zod schemas (the single source of truth): request
 * parameters and bodies in zod's input form, written in place; responses in its output form, their named
 * schemas under `components.schemas`.
 */
export function buildOpenApiDocument(routes: readonly AnyRoute[], baseUrl: string): OpenApiDocument {
  const outputs = new OutputSchemas();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method]: operationOf(route, outputs) };
  }
  const webhooks = webhookOperations(outputs);
  const used = new Set(
    routes.flatMap((route) => SECURITY[route.auth].flatMap((requirement) => Object.keys(requirement))),
  );
  return {
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
      .map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    webhooks,
    components: {
      schemas: outputs.all(),
      securitySchemes: Object.fromEntries(
        Object.entries(SECURITY_SCHEMES).filter(([name]) => used.has(name)),
      ),
    },
  };
}

/** The document as served at GET /v1/openapi.yaml; the YAML library loads with the first request for it. */
export async function openApiYaml(document: OpenApiDocument): Promise<string> {
  const { stringify } = await import('yaml');
  return stringify(document, { aliasDuplicateObjects: false });
}
