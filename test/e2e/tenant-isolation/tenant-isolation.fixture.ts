import type { Dispatcher } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { parse } from 'yaml';
import { type ApiHarness, type HarnessStorage, startApi } from '../../support/api-harness.js';
import { type RawAnswer, send } from '../../support/http.js';
import {
  type TenantWithResources,
  tenantWithResources,
  withPendingDataExport,
} from '../../support/tenant-resources.js';
import {
  type Credential,
  combinations,
  EXAMPLE_BODIES,
  fill,
  isOperatorRoute,
  type Operation,
  parametersOf,
  VOLATILE_HEADERS,
  type Walked,
} from './tenant-isolation.operations.js';

/** What tells two answers apart, field by field: status, headers and every problem-document field but request_id. */
export function differences(answer: RawAnswer, baseline: RawAnswer): string[] {
  const found: string[] = [];
  if (answer.status !== baseline.status) found.push(`status ${answer.status} vs ${baseline.status}`);
  const names = new Set([...Object.keys(answer.headers), ...Object.keys(baseline.headers)]);
  for (const name of [...names].filter((header) => !VOLATILE_HEADERS.has(header))) {
    if (answer.headers[name] !== baseline.headers[name]) {
      found.push(`header ${name}: ${answer.headers[name]} vs ${baseline.headers[name]}`);
    }
  }
  const fieldsOf = (raw: RawAnswer): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(
        typeof raw.json === 'object' && raw.json !== null ? raw.json : { text: raw.text },
      ).filter(([field]) => field !== 'request_id'),
    );
  const mine = fieldsOf(answer);
  const theirs = fieldsOf(baseline);
  for (const field of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
    if (JSON.stringify(mine[field]) !== JSON.stringify(theirs[field])) {
      found.push(`${field}: ${JSON.stringify(mine[field])} vs ${JSON.stringify(theirs[field])}`);
    }
  }
  return found;
}

/** What would show another organisation's data in an answer: the owner's email and every id of its resources. */
export const marksOf = (tenant: TenantWithResources) => [
  tenant.account.email,
  ...Object.values(tenant.ids).flat(),
];

/**
 * Starts the API on `storage` once for the walk, with an owner and a stranger each holding a real resource of
 * every kind, and the operations the served OpenAPI document lists.
 */
export function useIsolationFixture(storage: HarnessStorage) {
  let api: ApiHarness;
  let owner: TenantWithResources;
  let stranger: TenantWithResources;
  let operations: Walked[];

  const call = (walked: Walked, values: Record<string, string>, headers: Record<string, string>) => {
    const body = EXAMPLE_BODIES[walked.operation.operationId];
    return send(`${api.url}${fill(walked.path, values)}`, {
      method: walked.method.toUpperCase() as Dispatcher.HttpMethod,
      headers,
      ...(body === undefined ? {} : { body }),
      // A stream that opened (200) would never end: bound it, so a leak fails instead of hanging.
      signal: AbortSignal.timeout(5_000),
    });
  };
  const credentialsFor = (walked: Walked, who: TenantWithResources): Credential[] => {
    const schemes = new Set((walked.operation.security ?? []).flatMap((entry) => Object.keys(entry)));
    const refused = isOperatorRoute(walked.path) ? 403 : 404;
    return [
      ...(schemes.has('apiToken')
        ? [{ name: 'API token', headers: who.account.auth, expected: refused }]
        : []),
      ...(schemes.has('session') ? [{ name: 'session', headers: who.session, expected: refused }] : []),
      // Node tokens are accepted only by node endpoints (spec 5.1), whoever owns the resource.
      { name: 'node token', headers: { authorization: `Bearer ${who.nodeToken}` }, expected: 401 },
    ];
  };
  /** What every GET the owner can make answers: status, ETag and body. */
  const ownerView = async () => {
    // A minute refills the organisation's query budget (spec 8) that the last view's log queries spent.
    api.clock.advance(60_000);
    const view: Record<string, string> = {};
    for (const walked of operations) {
      const { operation } = walked;
      const streams = operation.responses['200']?.content?.['text/event-stream'] !== undefined;
      const bySession = (operation.security ?? []).some((security) => 'session' in security);
      if (walked.method !== 'get' || isOperatorRoute(walked.path) || streams || !bySession) continue;
      const values = Object.fromEntries(
        parametersOf(walked.path).map(({ name, kind }) => [
          name,
          kind === 'shape'
            ? ['top_domains']
            : kind === undefined || kind === 'deployment'
              ? []
              : owner.ids[kind],
        ]),
      );
      for (const row of combinations(values)) {
        const answer = await send(`${api.url}${fill(walked.path, row)}`, { headers: owner.session });
        const body = answer.text.replace(/"request_id":"[^"]*"/, '');
        view[fill(walked.path, row)] = `${answer.status} ETag ${answer.headers.etag} ${body}`;
      }
    }
    return view;
  };

  beforeAll(async () => {
    api = await startApi(storage);
    owner = await tenantWithResources(api, { ip: '198.51.100.7', deviceName: 'kitchen-tablet' });
    stranger = await tenantWithResources(api, { ip: '198.51.100.8', deviceName: 'garage-tv' });
    await withPendingDataExport(api, owner);
    const document = parse((await send(`${api.url}/v1/openapi.yaml`)).text) as {
      paths: Record<string, Record<string, Operation>>;
    };
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => typeof operation === 'object' && 'operationId' in operation)
        .map(([method, operation]) => ({ method, path, operation })),
    );
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });
  return {
    get api(): ApiHarness {
      return api;
    },
    get owner(): TenantWithResources {
      return owner;
    },
    get stranger(): TenantWithResources {
      return stranger;
    },
    get operations(): Walked[] {
      return operations;
    },
    call,
    credentialsFor,
    ownerView,
  };
}

/** What each part of the walk reads: the server, both tenants, the operations and the calls above. */
export type IsolationFixture = ReturnType<typeof useIsolationFixture>;
