import { createHash } from 'node:crypto';
import { createTestApp, type TestApp } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { send } from '../support/http.js';

describe('API reference at GET /docs (rendered from the OpenAPI document, outside /v1)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  it('answers an HTML page naming every operation of the document, without a credential', async () => {
    const answer = await send(`${app.url}/docs`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    const document = parse((await send(`${app.url}/v1/openapi.yaml`)).text) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item).map((operation) => ({ path, id: operation.operationId })),
    );
    expect(operations.length).toBeGreaterThan(50);
    for (const { path, id } of operations) {
      expect(answer.text).toContain(`id="op-${id}"`);
      expect(answer.text).toContain(`<code>${path}</code>`);
    }
    // Parameters, request schemas and named schemas are rendered, with links to the latter.
    expect(answer.text).toContain('<h4>Request body</h4>');
    expect(answer.text).toContain('<h4>Parameters</h4>');
    expect(answer.text).toContain('id="schema-Problem"');
  });

  it('loads nothing from elsewhere and runs no script, under a CSP allowing only its own style sheet', async () => {
    const answer = await send(`${app.url}/docs`);
    expect(answer.text).not.toMatch(/<script|<link|src=|https?:\/\/(?!127\.0\.0\.1)/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(answer.text)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    expect(answer.headers['content-security-policy']).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
    );
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['x-request-id']).toMatch(/.+/);
  });

  it('is not an operation of the OpenAPI document, and /v1/docs does not exist', async () => {
    const yaml = (await send(`${app.url}/v1/openapi.yaml`)).text;
    expect(yaml).not.toMatch(/^ {2}\/docs:/m);
    expect((await send(`${app.url}/v1/docs`)).status).toBe(404);
  });
});
