import { createConfig, lintFromString } from '@redocly/openapi-core';
import { API_VERSION } from '@svc/domain';
import { createTestApp, type TestApp } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { send } from '../support/http.js';

/** The JSON Schema keywords these tests read. */
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  default?: unknown;
  $ref?: string;
}

interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        summary?: string;
        security?: unknown[];
        requestBody?: { content: Record<string, { schema: Schema }> };
        responses: Record<string, unknown>;
      }
    >
  >;
  components: { schemas: Record<string, Schema> };
}

/** Every object schema within `schema` (itself, properties, items, union members), by where it sits. */
function objectsIn(schema: Schema, where = ''): [string, Schema][] {
  const found: [string, Schema][] = schema.properties === undefined ? [] : [[where, schema]];
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    found.push(...objectsIn(property, `${where}.${name}`));
  if (schema.items !== undefined) found.push(...objectsIn(schema.items, `${where}[]`));
  for (const [index, member] of (schema.anyOf ?? []).entries())
    found.push(...objectsIn(member, `${where}|${index}`));
  return found;
}

describe('OpenAPI document (1.1, 9.4; ROUTES.md conventions)', () => {
  let app: TestApp;
  let document: OpenApiDocument;
  let yamlText: string;

  beforeAll(async () => {
    app = await createTestApp();
    const answer = await send(`${app.url}/v1/openapi.yaml`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/yaml/);
    yamlText = answer.text;
    document = parse(yamlText) as OpenApiDocument;
  });
  afterAll(async () => app.close());

  const components = () => document.components.schemas;
  const requestSchemaOf = (path: string, method: string): Schema => {
    const schema = document.paths[path]?.[method]?.requestBody?.content['application/json']?.schema;
    if (schema === undefined) throw new Error(`${method} ${path} takes no JSON body`);
    return schema;
  };

  it('is OpenAPI 3.1 at the API version and lists its server', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe(API_VERSION);
    expect(document.servers).toEqual([{ url: app.url }]);
  });

  it('describes every registered route, each with an operationId, a summary, its security and its problems', () => {
    for (const route of app.built.routes) {
      const operation = document.paths[route.path]?.[route.method];
      expect(operation, `${route.method.toUpperCase()} ${route.path}`).toBeDefined();
      expect(operation?.operationId).toBe(route.operationId);
      expect(operation?.summary).toBeTruthy();
      expect(operation?.security).toBeDefined();
      expect(Object.keys(operation?.responses ?? {})).toContain('500');
    }
  });

  it('documents no operation that the server does not serve', () => {
    const served = new Set(app.built.routes.map((route) => `${route.method} ${route.path}`));
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations))
        expect(served.has(`${method} ${path}`), `${method} ${path}`).toBe(true);
    }
  });

  it('describes every tag in more words than its name', () => {
    const { tags } = parse(yamlText) as { tags: { name: string; description: string }[] };
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) {
      expect(tag.description, tag.name).not.toBe(tag.name);
      expect(tag.description.split(' ').length, tag.name).toBeGreaterThanOrEqual(8);
    }
  });

  it('gives request bodies in input form: a field with a default is optional and shows it', () => {
    const body = requestSchemaOf('/v1/profiles', 'post');
    expect(body.required ?? []).toEqual([]);
    const settings = body.properties?.settings;
    expect(settings?.properties?.block_mode).toMatchObject({ default: 'nxdomain' });
    expect(settings?.required ?? []).not.toContain('block_mode');
    // Nothing a request body refers to lives under components, where generated clients take a default for
    // "always present".
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const schema = operation.requestBody?.content['application/json']?.schema;
        if (schema === undefined) continue;
        expect(JSON.stringify(schema), `${method} ${path}`).not.toContain('"$ref"');
        for (const [where, object] of objectsIn(schema)) {
          const defaulted = Object.entries(object.properties ?? {})
            .filter(([, property]) => 'default' in property)
            .map(([name]) => name);
          for (const name of defaulted)
            expect(object.required ?? [], `${method} ${path} ${where}.${name}`).not.toContain(name);
        }
      }
    }
  });

  it('gives responses in output form: a field with a default is always there, so required', () => {
    const settings = components().ProfileSettings;
    expect(settings?.properties?.block_mode).toMatchObject({ default: 'nxdomain' });
    expect(settings?.required).toEqual(expect.arrayContaining(['block_mode', 'retention_days', 'ecs']));
    for (const [name, component] of Object.entries(components())) {
      for (const [where, object] of objectsIn(component)) {
        for (const [property, schema] of Object.entries(object.properties ?? {}))
          if ('default' in schema)
            expect(object.required ?? [], `${name}${where}.${property}`).toContain(property);
      }
    }
  });

  it('lints clean under the recommended rules of @redocly/cli', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: yamlText, absoluteRef: 'openapi.yaml', config });
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(
      errors.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`),
    ).toEqual([]);
    const warnings = problems.filter((problem) => problem.severity === 'warn');
    expect(
      warnings.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`),
    ).toEqual([]);
  });
});
