import { randomUUID } from 'node:crypto';
import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createAccount } from '../support/accounts.js';
import { type ApiHarness, startApi } from '../support/api-harness.js';
import { problemOf, type RawAnswer, send } from '../support/http.js';

/** The part of a JSON schema (OpenAPI 3.1) this test walks. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  format?: string;
  example?: unknown;
}

interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

/** One step from a body's root to a string: a property, an array item, or a value of a free-form map. */
type Step = { property: string } | { item: true } | { mapValue: true };

/** A lone high surrogate: JSON `"\ud800"`, which no UTF-8 text can hold. */
const LONE_SURROGATE = '\ud800';

/**
 * Every way to reach a string in `schema`, as the steps from the body's root: properties, array items and
 * the values of free-form maps, through references and every alternative of a union.
 */
function stringPaths(
  schema: Schema,
  components: Record<string, Schema>,
  seen: readonly string[] = [],
): Step[][] {
  if (schema.$ref !== undefined) {
    if (seen.includes(schema.$ref)) return [];
    const target = components[schema.$ref.replace('#/components/schemas/', '')];
    return target === undefined ? [] : stringPaths(target, components, [...seen, schema.$ref]);
  }
  const paths: Step[][] = [];
  for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    paths.push(...stringPaths(alternative, components, seen));
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.includes('string')) paths.push([]);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    for (const rest of stringPaths(property, components, seen)) paths.push([{ property: name }, ...rest]);
  }
  if (schema.items !== undefined) {
    for (const rest of stringPaths(schema.items, components, seen)) paths.push([{ item: true }, ...rest]);
  }
  if (typeof schema.additionalProperties === 'object') {
    for (const rest of stringPaths(schema.additionalProperties, components, seen)) {
      paths.push([{ mapValue: true }, ...rest]);
    }
  }
  return paths;
}

/** The body holding the lone surrogate at the end of `steps`, and the dotted field its problem must name. */
function bodyAt(steps: Step[]): { body: unknown; field: string } {
  let body: unknown = LONE_SURROGATE;
  for (const step of [...steps].reverse()) {
    if ('property' in step) body = { [step.property]: body };
    else if ('item' in step) body = [body];
    else body = { entry: body };
  }
  const field = steps
    .map((step) => ('property' in step ? step.property : 'item' in step ? '0' : 'entry'))
    .join('.');
  return { body, field: field === '' ? 'body' : field };
}

/**
 * Issue 27, finding 11: a lone UTF-16 surrogate in a string came back a 500. Every string field of every
 * request body the API documents (derived from the served OpenAPI document, which the route tables build) is
 * sent one at a time holding `"\ud800"`; each answer is 422 naming that field, never a 500. Callers are
 * authenticated as each operation needs (an operator token, a session), so the answer is the body's.
 */
describe('ill-formed Unicode in every string field of every request body (issue 27, spec 7)', () => {
  let api: ApiHarness;
  let document: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };
  let token: Record<string, string>;
  let cookie: Record<string, string>;

  beforeAll(async () => {
    api = await startApi('pglite', { SVC_RATE_LIMIT_PER_MINUTE: '1000000' });
    document = parse((await send(`${api.url}/v1/openapi.yaml`)).text) as typeof document;
    const account = await createAccount(api);
    await setOperatorFlag(await api.container.getAsync<IdentityStore>(IdentityStore), account.email, true);
    cookie = { cookie: `svc_session=${account.cookie}` };
    const scopes = (document.components.schemas.Scope as { enum: string[] }).enum;
    const created = await send(`${api.url}/v1/tokens`, {
      method: 'POST',
      headers: cookie,
      body: { name: 'every scope', scopes },
    });
    token = { authorization: `Bearer ${(created.json as { secret: string }).secret}` };
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  const credentialsOf = (operation: Operation): Record<string, string> => {
    const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
    if (schemes.includes('apiToken')) return token;
    if (schemes.includes('session')) return cookie;
    return {};
  };
  const pathOf = (template: string, operation: Operation): string =>
    template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
      const schema = operation.parameters?.find((parameter) => parameter.name === name)?.schema;
      if (schema?.format === 'uuid') return randomUUID();
      return encodeURIComponent(String(schema?.example ?? 'x'));
    });

  it('answers 422 naming the field for each of them, never a 500', async () => {
    const components = document.components.schemas;
    const failures: string[] = [];
    let fields = 0;
    const operations = new Set<string>();
    for (const [template, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const schema = operation.requestBody?.content['application/json']?.schema;
        if (schema === undefined) continue;
        operations.add(operation.operationId);
        const paths = new Map(stringPaths(schema, components).map((steps) => [bodyAt(steps).field, steps]));
        for (const steps of paths.values()) {
          const { body, field } = bodyAt(steps);
          fields += 1;
          const answer = await send(`${api.url}${pathOf(template, operation)}`, {
            method: method.toUpperCase() as 'POST',
            headers: credentialsOf(operation),
            body: body as object,
          }).catch(
            (error: unknown): RawAnswer => ({ status: 0, text: String(error), headers: {}, json: undefined }),
          );
          const where = `${method.toUpperCase()} ${template} ${field}`;
          if (answer.status !== 422) {
            failures.push(`${where}: ${answer.status} ${answer.text.slice(0, 200)}`);
            continue;
          }
          const named = (problemOf(answer).errors as { field: string; message: string }[]).filter(
            (error) => error.field === field && /lone UTF-16 surrogate/.test(error.message),
          );
          if (named.length === 0)
            failures.push(`${where}: 422 without the field: ${answer.text.slice(0, 300)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The walk reached every documented body and the fields the fuzzer broke.
    expect(operations.size).toBeGreaterThanOrEqual(30);
    expect(fields).toBeGreaterThan(operations.size);
  }, 300_000);

  it('accepts a well-formed pair, and names lone surrogates of either half, in array items and in keys', async () => {
    const named = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: token,
      body: { name: 'home \ud83d\ude00' },
    });
    expect(named.status).toBe(201);
    const { id, name } = named.json as { id: string; name: string };
    expect(name).toBe('home 😀');
    const fieldsOf = (answer: RawAnswer) => {
      expect(answer.status, answer.text).toBe(422);
      return (problemOf(answer).errors as { field: string }[]).map((error) => error.field);
    };
    for (const text of ['\udc00', 'a\udc00\ud800b', 'tail\ud83d']) {
      const answer = await send(`${api.url}/v1/profiles/${id}`, {
        method: 'PATCH',
        headers: { ...token, 'content-type': 'application/merge-patch+json' },
        body: { name: text },
      });
      expect(fieldsOf(answer)).toEqual(['name']);
    }
    const rules = await send(`${api.url}/v1/profiles/${id}/rules`, {
      method: 'PUT',
      headers: { ...token, 'if-match': '"1"' },
      body: { deny: ['ok.example', 'a\ud800.example'] },
    });
    expect(fieldsOf(rules)).toContain('deny.1');
    const key = await send(`${api.url}/v1/profiles`, {
      method: 'POST',
      headers: token,
      body: { name: '\ud800', '\ud800': 1 },
    });
    expect(fieldsOf(key)).toEqual(expect.arrayContaining(['name', 'body']));
    expect((await send(`${api.url}/v1/profiles/${id}`, { headers: token })).json).toMatchObject({
      name: 'home 😀',
    });
  });
});
