import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createAccount, type TestAccount } from '../support/accounts.js';
import { type ApiHarness, startApi } from '../support/api-harness.js';
import { problemOf, send } from '../support/http.js';

interface Operation {
  operationId: string;
  requestBody?: unknown;
}

/**
 * A valid body for every profile-scoped operation that takes one, so the request reaches the tenant check
 * instead of stopping at validation. A new operation without an example fails the walk: add one here.
 */
const EXAMPLE_BODIES: Record<string, object> = {
  updateProfile: { name: 'taken over' },
  replaceProfileRules: { deny: ['x.example'], allow: [], rewrites: [] },
  replaceProfileLists: { lists: [1] },
  createLinkedIp: { ddns: true },
  createListReport: { domain: 'ads.example', list_id: 1, kind: 'false_positive' },
  updateDevice: { display_name: 'taken over' },
  createNode: { name: 'taken over' },
};

/** Values for the other path parameters: well-formed, so only ownership decides. */
const EXAMPLE_PARAMS: Record<string, string> = {
  linkId: '00000000-0000-4000-8000-000000000000',
  deviceId: 'phone',
  nodeId: '00000000-0000-4000-8000-000000000000',
  shape: 'top_domains',
};

describe('tenant isolation: another organisation’s profile answers 404 on every profile route (spec 1.9, 5.3.4)', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  let stranger: TestAccount;
  let profileId: string;
  let operations: { method: string; path: string; operation: Operation }[];

  beforeAll(async () => {
    api = await startApi('memory');
    owner = await createAccount(api);
    stranger = await createAccount(api);
    const created = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
    profileId = (created.json as { id: string }).id;
    const document = parse((await send(`${api.url}/v1/openapi.yaml`)).text) as {
      paths: Record<string, Record<string, Operation>>;
    };
    operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/v1/profiles/{id}'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
      );
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('finds the profile routes in the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(15);
  });

  it('answers 404 not_found to a token of another organisation on each of them', async () => {
    const failures: string[] = [];
    for (const { method, path, operation } of operations) {
      const url = path.replace('{id}', profileId).replace(/\{(\w+)\}/g, (_match, name: string) => {
        const value = EXAMPLE_PARAMS[name];
        if (value === undefined) throw new Error(`no example value for path parameter ${name} of ${path}`);
        return value;
      });
      const body = EXAMPLE_BODIES[operation.operationId];
      if (operation.requestBody !== undefined && body === undefined) {
        failures.push(`${operation.operationId}: add an example body to EXAMPLE_BODIES`);
        continue;
      }
      const answer = await send(`${api.url}${url}`, {
        method: method.toUpperCase() as 'GET',
        headers: stranger.auth,
        ...(body === undefined ? {} : { body }),
      });
      if (answer.status !== 404 || problemOf(answer).code !== 'not_found') {
        failures.push(`${method.toUpperCase()} ${path} (${operation.operationId}) answered ${answer.status}`);
      }
    }
    expect(failures).toEqual([]);
    const mine = await send(`${api.url}/v1/profiles/${profileId}`, { headers: owner.auth });
    expect(mine.json).toMatchObject({ version: 1, name: 'My profile' });
  });
});
