import { createConfig, lintFromString } from '@redocly/openapi-core';
import { API_VERSION } from '@svc/domain';
import { createTestApp, type TestApp } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { send } from '../support/http.js';

interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<
    string,
    Record<
      string,
      { operationId?: string; summary?: string; security?: unknown[]; responses: Record<string, unknown> }
    >
  >;
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
