import { randomUUID } from 'node:crypto';
import { ROLE_MATRIX, type Role, roleAtLeast, roleRequirementOf } from '@svc/domain';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { send } from '../../support/http.js';
import { joinAs } from '../../support/members.js';
import { type TenantWithResources, tenantWithResources } from '../../support/tenant-resources.js';
import {
  CREATE_BODIES,
  combinations,
  EXAMPLE_BODIES,
  fill,
  type Operation,
  parametersOf,
  type Walked,
} from '../tenant-isolation/tenant-isolation.operations.js';

/** Bodies of the operations the role walk sends that neither the isolation walk nor the creating POSTs name. */
const ROLE_WALK_BODIES: Record<string, object> = {
  ...EXAMPLE_BODIES,
  ...CREATE_BODIES,
  createInvitation: { email: 'walked@example.test', role: 'viewer' },
  transferOwnership: { member_id: randomUUID() },
};

const keyOf = ({ method, path }: Walked) => `${method.toUpperCase()} ${path}`;

/**
 * The role matrix (issue 39, docs/roles.md) checked against the served OpenAPI document: every operation is
 * in the matrix, and every operation that asks for a role answers each role as the matrix says. Members act
 * in the owner's organisation with their sessions and send the ids of a stranger's real resources: allowed
 * roles get past the role check to the tenant check (404, never 403), denied ones get 403 insufficient_role
 * whatever the id, so the answer tells nothing about another organisation's resources.
 */
describe('the role matrix, generated from the OpenAPI document (issue 39)', () => {
  let api: ApiHarness;
  let owner: TenantWithResources;
  let stranger: TenantWithResources;
  let operations: Walked[];
  const sessions = new Map<Role, Record<string, string>>();

  beforeAll(async () => {
    api = await startApi('memory');
    owner = await tenantWithResources(api, { ip: '198.51.100.17', deviceName: 'hall-tv' });
    stranger = await tenantWithResources(api, { ip: '198.51.100.18', deviceName: 'attic-tv' });
    sessions.set('owner', owner.session);
    for (const role of ['admin', 'editor', 'viewer'] as const) {
      sessions.set(role, (await joinAs(api, owner.session, role)).session);
    }
    const document = parse((await send(`${api.url}/v1/openapi.yaml`)).text) as {
      paths: Record<string, Record<string, Operation>>;
    };
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => typeof operation === 'object' && 'operationId' in operation)
        .map(([method, operation]) => ({ method, path, operation })),
    );
  }, 180_000);
  afterAll(async () => {
    await api?.close();
  });

  it('names every operation of the document, and nothing else', () => {
    const missing = operations.map(keyOf).filter((key) => ROLE_MATRIX[key] === undefined);
    expect(
      missing,
      'operations missing from the role matrix: add each to ROLE_MATRIX (packages/domain/src/identity/role-matrix.ts) and docs/roles.md; until then they need the owner',
    ).toEqual([]);
    const documented = new Set(operations.map(keyOf));
    const stale = Object.keys(ROLE_MATRIX).filter((key) => !documented.has(key));
    expect(stale, 'role matrix entries for operations the API no longer has').toEqual([]);
  });

  for (const role of ['owner', 'admin', 'editor', 'viewer'] as const) {
    it(`answers the ${role} as the matrix says: allowed → not 403, denied → 403 insufficient_role, others' ids → 404`, async () => {
      const failures: string[] = [];
      const walked = operations.filter((entry) => {
        const requirement = roleRequirementOf(entry.method, entry.path);
        const bySession = (entry.operation.security ?? []).some((scheme) => 'session' in scheme);
        return bySession && ['owner', 'admin', 'editor', 'viewer'].includes(requirement);
      });
      expect(walked.length).toBeGreaterThanOrEqual(40);
      let denied = 0;
      for (const entry of walked) {
        const requirement = roleRequirementOf(entry.method, entry.path) as Role;
        const allowed = roleAtLeast(role, requirement);
        if (!allowed) denied += 1;
        const values = Object.fromEntries(
          parametersOf(entry.path).map(({ name, kind }) => [
            name,
            kind === 'shape'
              ? ['top_domains']
              : kind === undefined || kind === 'deployment'
                ? []
                : stranger.ids[kind],
          ]),
        );
        const [row] = combinations(values);
        const body = ROLE_WALK_BODIES[entry.operation.operationId];
        const answer = await send(`${api.url}${fill(entry.path, row ?? {})}`, {
          method: entry.method.toUpperCase() as Dispatcher.HttpMethod,
          headers: sessions.get(role) ?? {},
          ...(body === undefined ? {} : { body }),
          signal: AbortSignal.timeout(5_000),
        });
        const code = (answer.json as { code?: string } | null)?.code;
        const label = `${keyOf(entry)} as ${role} (needs ${requirement})`;
        if (allowed && answer.status === 403) failures.push(`${label}: 403 ${code}, expected to be allowed`);
        if (allowed && entry.path.includes('{') && answer.status !== 404) {
          failures.push(`${label}: ${answer.status} for another organisation's resource, expected 404`);
        }
        if (!allowed && (answer.status !== 403 || code !== 'insufficient_role')) {
          failures.push(`${label}: ${answer.status} ${code}, expected 403 insufficient_role`);
        }
      }
      expect(failures).toEqual([]);
      // The walk checks refusals too: a viewer may change nothing of the organisation.
      expect(denied).toBe(
        walked.filter((entry) => !roleAtLeast(role, roleRequirementOf(entry.method, entry.path) as Role))
          .length,
      );
      if (role === 'viewer') expect(denied).toBeGreaterThanOrEqual(20);
    }, 120_000);
  }
});
