import { randomUUID } from 'node:crypto';
import { postgresServerSkipReason } from '@svc/testing/postgres';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ApiHarness, type HarnessStorage, startApi } from '../support/api-harness.js';
import { type RawAnswer, send } from '../support/http.js';
import {
  type ResourceKind,
  type TenantWithResources,
  tenantWithResources,
  withPendingDataExport,
} from '../support/tenant-resources.js';

interface Operation {
  operationId: string;
  requestBody?: unknown;
  security?: Record<string, unknown>[];
  parameters?: unknown[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Walked {
  method: string;
  path: string;
  operation: Operation;
}
/** How the stranger presents itself, and the status every request so made must get. */
interface Credential {
  name: string;
  headers: Record<string, string>;
  expected: number;
}

/**
 * A valid body for every operation with a path parameter that takes one, so the request reaches the tenant
 * check instead of stopping at validation. A new operation without an example fails the walk: add one here.
 */
const EXAMPLE_BODIES: Record<string, object> = {
  updateProfile: { name: 'taken over' },
  replaceProfileRules: { deny: ['x.example'], allow: [], rewrites: [] },
  replaceProfileLists: { lists: [1] },
  replaceProfileSchedules: {
    schedules: [{ name: 'taken', windows: [{ days: ['mon'], start: '00:00', end: '00:00' }] }],
  },
  createLinkedIp: { ddns: true },
  createListReport: { domain: 'ads.example', list_id: 1, kind: 'false_positive' },
  updateDevice: { display_name: 'taken over' },
  createNode: { name: 'taken over' },
  renamePasskey: { name: 'taken over' },
  updateProfileSuspension: { suspended: true, reason: 'taken over' },
  decideListReport: { status: 'rejected', resolution_note: 'taken over' },
  deleteAccountOnBehalf: { reason: 'taken over' },
  cancelAccountDeletionOnBehalf: { reason: 'taken over' },
};

/** Bodies of the creating POSTs without a path parameter, for the Idempotency-Key check. */
const CREATE_BODIES: Record<string, object> = {
  createProfile: { name: 'idempotent' },
  createToken: { name: 'idempotent', scopes: ['profiles:read'] },
};

/**
 * What each path parameter names, keyed by the path up to and including it. `deployment` is a resource no
 * organisation owns (operator and source blocks); `shape` is a value of an enumeration, not a resource. A new
 * path parameter fails the walk until it is named here.
 */
const PARAMETER_RESOURCES: Record<string, ResourceKind | 'deployment' | 'shape'> = {
  '/v1/profiles/{id}': 'profile',
  '/v1/profiles/{id}/linked-ips/{linkId}': 'linkedIp',
  '/v1/profiles/{id}/devices/{deviceId}': 'device',
  '/v1/profiles/{id}/nodes/{nodeId}': 'node',
  '/v1/profiles/{id}/analytics/{shape}': 'shape',
  '/v1/tokens/{id}': 'apiToken',
  '/v1/auth/sessions/{id}': 'session',
  '/v1/auth/passkeys/{id}': 'passkey',
  '/v1/auth/me/exports/{id}': 'dataExport',
  '/v1/admin/profiles/{id}': 'profile',
  '/v1/admin/list-reports/{id}': 'listReport',
  '/v1/admin/accounts/{id}': 'account',
  '/v1/admin/operator-blocks/{id}': 'deployment',
  '/v1/admin/source-blocks/{id}': 'deployment',
};

/** Operations with a path parameter that present no account, so tenant isolation does not apply to them. */
const OUTSIDE_THE_WALK: Record<string, string> = {
  updateDdns:
    'the unguessable token in the path is the credential itself; no account is presented (ROUTES.md)',
  downloadNodeListArtifact:
    'a node endpoint (accounts are refused by the node self test); a compiled list is content-addressed and the same for every organisation',
};

/**
 * Operator routes (spec 1.7, 5.4) are deployment-wide by design: an operator sees every organisation's
 * profiles, reports and accounts, so "another organisation" does not apply to them. The walk still sends them
 * the stranger's (non-operator) credentials: refused with 403, identically for a real id and a made-up one.
 */
const isOperatorRoute = (path: string) => path.startsWith('/v1/admin/');

/** Headers that differ between any two answers, whatever was asked. */
const VOLATILE_HEADERS = new Set(['x-request-id', 'date', 'content-length']);

/** Well-formed ids of resources that do not exist, so only existence and ownership decide. */
const MISSING: Record<ResourceKind | 'deployment', string> = {
  profile: 'zz9zz9',
  linkedIp: randomUUID(),
  device: 'no-such-device',
  node: randomUUID(),
  listReport: randomUUID(),
  apiToken: randomUUID(),
  session: randomUUID(),
  passkey: randomUUID(),
  dataExport: randomUUID(),
  account: randomUUID(),
  deployment: randomUUID(),
};

/** The path parameters of `path`, in order, with what each names (undefined when nothing is recorded). */
function parametersOf(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => {
    const name = match[1] ?? '';
    const key = path.slice(0, (match.index ?? 0) + match[0].length);
    return { name, kind: PARAMETER_RESOURCES[key] };
  });
}

/** Every combination of one value per parameter. */
function combinations(values: Record<string, string[]>): Record<string, string>[] {
  return Object.entries(values).reduce<Record<string, string>[]>(
    (rows, [name, options]) => rows.flatMap((row) => options.map((value) => ({ ...row, [name]: value }))),
    [{}],
  );
}

const fill = (path: string, values: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? ''));

/** What tells two answers apart, field by field: status, headers and every problem-document field but request_id. */
function differences(answer: RawAnswer, baseline: RawAnswer): string[] {
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
const marksOf = (tenant: TenantWithResources) => [tenant.account.email, ...Object.values(tenant.ids).flat()];

/**
 * Tenant isolation (spec 1.9, 5.3.4) generated from the served OpenAPI document: a stranger from another
 * organisation, holding its own real resources and credentials, sends every operation with a path parameter
 * the owner's real ids; each answer must be the 404 problem document a made-up id gets, to the header.
 */
function runIsolationWalk(storage: HarnessStorage, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip === true)(
    `tenant isolation on ${storage}: another organisation’s resources answer 404, indistinguishable from none (spec 1.9, 5.3.4)`,
    () => {
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

      it('walks every operation with a path parameter that an account reaches: owned ids answer as missing ones do', async () => {
        const walked = operations.filter(
          ({ path, operation }) =>
            path.includes('{') && OUTSIDE_THE_WALK[operation.operationId] === undefined,
        );
        expect(walked.length).toBeGreaterThanOrEqual(40);
        const before = await ownerView();
        // The owner's second export is still pending: a stranger must get 404 there, not 409 export_not_ready.
        expect(before[`/v1/auth/me/exports/${owner.ids.dataExport[1]}`]).toContain('"status":"pending"');
        const failures: string[] = [];
        let compared = 0;
        for (const entry of walked) {
          const { operation, path } = entry;
          const label = `${entry.method.toUpperCase()} ${path} (${operation.operationId})`;
          if (operation.requestBody !== undefined && EXAMPLE_BODIES[operation.operationId] === undefined) {
            failures.push(`${label}: add an example body to EXAMPLE_BODIES`);
            continue;
          }
          const parameters = parametersOf(path).flatMap(({ name, kind }) => {
            if (kind !== undefined) return [{ name, kind }];
            failures.push(`${label}: name the resource of {${name}} in PARAMETER_RESOURCES`);
            return [];
          });
          if (parameters.length < parametersOf(path).length) continue;
          const valuesOf = (pick: (kind: ResourceKind | 'deployment', index: number) => string[]) =>
            Object.fromEntries(
              parameters.map(({ name, kind }, index) => [
                name,
                kind === 'shape' ? ['top_domains'] : pick(kind, index),
              ]),
            );
          const missing = (kind: ResourceKind | 'deployment') => [MISSING[kind]];
          const owned = (kind: ResourceKind | 'deployment') =>
            kind === 'deployment' ? missing(kind) : owner.ids[kind];
          // The owner's resource against nothing at all, and (under a profile) the owner's sub-resource under the
          // stranger's own profile against a sub-resource that does not exist there.
          const cases = [{ name: 'owned', ids: valuesOf(owned), baseline: valuesOf(missing), headers: {} }];
          // A stale If-Match must not turn the 404 into 412 version_mismatch, which would tell the profile exists.
          if (entry.method !== 'get') {
            cases.push({
              name: 'owned with a stale If-Match',
              ids: valuesOf(owned),
              baseline: valuesOf(missing),
              headers: { 'if-match': '"999"' },
            });
          }
          if (
            parameters[0]?.kind === 'profile' &&
            parameters.some(({ kind }) => kind !== 'profile' && kind !== 'shape')
          ) {
            cases.push({
              name: 'mixed',
              ids: valuesOf((kind, index) => (index === 0 ? stranger.ids.profile : owned(kind))),
              baseline: valuesOf((kind, index) => (index === 0 ? stranger.ids.profile : missing(kind))),
              headers: {},
            });
          }
          for (const credential of credentialsFor(entry, stranger)) {
            for (const { name, ids, baseline, headers } of cases) {
              const sent = { ...credential.headers, ...headers };
              const [nothing] = combinations(baseline);
              const reference = await call(entry, nothing ?? {}, sent);
              for (const row of combinations(ids)) {
                const where = `${label} ${name} ${fill(path, row)} with the stranger's ${credential.name}`;
                try {
                  const answer = await call(entry, row, sent);
                  compared += 1;
                  if (answer.status !== credential.expected) {
                    failures.push(
                      `${where}: answered ${answer.status}, not ${credential.expected}: ${answer.text}`,
                    );
                  } else if (!(answer.headers['content-type'] ?? '').startsWith('application/problem+json')) {
                    failures.push(`${where}: no problem document`);
                  }
                  const told = differences(answer, reference);
                  if (told.length > 0)
                    failures.push(`${where}: differs from a missing id: ${told.join('; ')}`);
                } catch (error) {
                  failures.push(`${where}: ${String(error)}`);
                }
              }
            }
          }
        }
        expect(failures).toEqual([]);
        expect(compared).toBeGreaterThanOrEqual(100);
        // Nothing the stranger sent changed anything the owner sees: bodies, versions and ETags are as they were.
        expect(await ownerView()).toEqual(before);
      }, 120_000);

      it('lists, node self routes (no id in the path) and the stranger’s own data export show nothing of the owner', async () => {
        const ownerMarks = marksOf(owner);
        const failures: string[] = [];
        for (const entry of operations.filter(
          ({ path, method }) => !path.includes('{') && method === 'get',
        )) {
          const { operation, path } = entry;
          const upgrades = operation.responses['101'] !== undefined;
          if (isOperatorRoute(path) || upgrades || (operation.security ?? []).length === 0) continue;
          const schemes = new Set((operation.security ?? []).flatMap((security) => Object.keys(security)));
          const credentials = [
            ...(schemes.has('apiToken') ? [stranger.account.auth] : []),
            ...(schemes.has('session') ? [stranger.session] : []),
            ...(schemes.has('nodeToken') ? [{ authorization: `Bearer ${stranger.nodeToken}` }] : []),
          ];
          for (const headers of credentials) {
            const answer = await send(`${api.url}${path}`, { headers });
            if (answer.status !== 200) failures.push(`${path}: answered ${answer.status}: ${answer.text}`);
            const seen = ownerMarks.filter((mark) => answer.text.includes(mark));
            if (seen.length > 0) failures.push(`${path} shows the owner's ${seen.join(', ')}`);
          }
        }
        const archive = await send(`${api.url}/v1/auth/me/exports/${stranger.ids.dataExport[0]}/download`, {
          headers: stranger.session,
        });
        expect(archive.status).toBe(200);
        expect(archive.text).toContain(stranger.account.email);
        const inArchive = ownerMarks.filter((mark) => archive.text.includes(mark));
        if (inArchive.length > 0)
          failures.push(`the stranger's export holds the owner's ${inArchive.join(', ')}`);
        expect(failures).toEqual([]);
      });

      it('an Idempotency-Key the owner used neither replays nor conflicts for the stranger (spec 4.1.5: per account)', async () => {
        const idempotent = operations.filter(
          ({ path, method, operation }) =>
            method === 'post' &&
            !isOperatorRoute(path) &&
            JSON.stringify(operation.parameters ?? []).includes('Idempotency-Key'),
        );
        expect(idempotent.length).toBeGreaterThanOrEqual(5);
        const ownerMarks = marksOf(owner);
        const failures: string[] = [];
        for (const [index, entry] of idempotent.entries()) {
          const { operationId } = entry.operation;
          const body = EXAMPLE_BODIES[operationId] ?? CREATE_BODIES[operationId];
          if (entry.operation.requestBody !== undefined && body === undefined) {
            failures.push(`${operationId}: add a body to CREATE_BODIES`);
            continue;
          }
          const key = `shared-key-${index}`;
          const post = (who: TenantWithResources) =>
            send(`${api.url}${fill(entry.path, { id: who.ids.profile[0] ?? '' })}`, {
              method: 'POST',
              headers: { ...who.session, 'idempotency-key': key },
              ...(body === undefined ? {} : { body }),
            });
          const mine = await post(owner);
          const theirs = await post(stranger);
          if (theirs.status >= 300) {
            failures.push(
              `${operationId}: the stranger got ${theirs.status} for a key the owner used: ${theirs.text}`,
            );
          }
          const seen = ownerMarks.filter((mark) => theirs.text.includes(mark));
          if (seen.length > 0 || (mine.status < 300 && theirs.text === mine.text)) {
            failures.push(
              `${operationId}: the stranger was answered with the owner's response: ${theirs.text}`,
            );
          }
        }
        expect(failures).toEqual([]);
      });

      it('node self routes refuse an account’s credentials with 401 (spec 5.1)', async () => {
        const nodeRoutes = operations.filter(({ operation }) => {
          const schemes = (operation.security ?? []).flatMap((security) => Object.keys(security));
          return schemes.length > 0 && schemes.every((scheme) => scheme === 'nodeToken');
        });
        expect(nodeRoutes.length).toBeGreaterThanOrEqual(4);
        for (const { method, path } of nodeRoutes) {
          for (const headers of [stranger.account.auth, stranger.session]) {
            const answer = await send(`${api.url}${path}`, {
              method: method.toUpperCase() as Dispatcher.HttpMethod,
              headers,
            });
            expect(answer.status, `${method} ${path}`).toBe(401);
          }
        }
        const self = await send(`${api.url}/v1/nodes/self/profile`, {
          headers: { authorization: `Bearer ${stranger.nodeToken}` },
        });
        expect(self.text).toContain(stranger.ids.profile[0]);
      });
    },
  );
}

runIsolationWalk('memory');
runIsolationWalk('pglite');
runIsolationWalk('postgres', { skip: postgresServerSkipReason !== undefined });
