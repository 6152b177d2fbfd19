import { createTestApp, type TestApp } from '@svc/http-server';
import { createClient, OPERATIONS, type SvcClient } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * Operations of the served document the SDK has no method for yet, each with the reason. The meta operations,
 * the OpenAPI document included (`meta.openApiYaml`), all have one. An entry the map gains, or one the server
 * stops serving, fails the last test, so this list cannot go stale.
 */
const WITHOUT_SDK_METHOD: Readonly<Record<string, string>> = {};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** operationId of every operation of an OpenAPI document, as `{operationId: 'METHOD /path'}`. */
function operationsOf(document: unknown): Map<string, string> {
  const found = new Map<string, string>();
  const paths =
    (document as { paths?: Record<string, Record<string, { operationId?: unknown }>> }).paths ?? {};
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const id = operation.operationId;
      if (typeof id !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      found.set(id, `${method.toUpperCase()} ${path}`);
    }
  }
  return found;
}

/** What a dotted path names on the client (`'profiles.linkedIps.ddnsUrl'`), walking real properties. */
function resolve(client: SvcClient, path: string): unknown {
  let node: unknown = client;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

describe('SDK coverage of the served OpenAPI document (1.1, 9.4)', () => {
  let app: TestApp;
  let served: Map<string, string>;
  beforeAll(async () => {
    app = await createTestApp();
    served = operationsOf(parse(await createClient({ baseUrl: app.url }).meta.openApiYaml()));
  });
  afterAll(async () => app.close());

  it('reads a document with operations', () => {
    expect(served.size).toBeGreaterThan(40);
  });

  it('has an SDK method for every operation of the document', () => {
    const missing = [...served]
      .filter(([id]) => !(id in OPERATIONS) && !(id in WITHOUT_SDK_METHOD))
      .map(([id, route]) => `${id} (${route})`);
    expect(missing, 'operations without an entry in OPERATIONS (packages/sdk/src/operations.ts)').toEqual([]);
  });

  it('maps every entry to a function of a real client instance', () => {
    const client = createClient({ baseUrl: app.url });
    const broken = Object.entries(OPERATIONS)
      .filter(([, path]) => typeof resolve(client, path) !== 'function')
      .map(([id, path]) => `${id} → ${path}`);
    expect(broken).toEqual([]);
  });

  it('names no operation the server does not serve, and exempts none it maps', () => {
    expect(Object.keys(OPERATIONS).filter((id) => !served.has(id))).toEqual([]);
    expect(Object.keys(WITHOUT_SDK_METHOD).filter((id) => id in OPERATIONS || !served.has(id))).toEqual([]);
  });
});
