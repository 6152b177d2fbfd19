import { ProblemCodes } from '@svc/domain';
import { createTestApp, type TestApp } from '@svc/http-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../support/http.js';
import { expectProblem } from '../support/problems.js';

describe('problem type URIs answer a human page (spec 2.12 type, issue 30)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => app.close());

  it('dereferences the type of a problem the API answered to a page about its code', async () => {
    const problem = expectProblem(await send(`${app.url}/v1/profiles`), 401, 'unauthenticated');
    expect(problem.type).toBe(`${app.url}/problems/unauthenticated`);
    const page = await send(String(problem.type));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<code>unauthenticated</code>');
    expect(page.text).toContain('HTTP 401 Unauthorized');
    expect(page.text).toContain('sign in (session cookie) or send');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
  });

  it('answers a page with its own text for every problem code, and lists them all', async () => {
    const index = await send(`${app.url}/problems`);
    expect(index.status).toBe(200);
    const texts = new Set<string>();
    for (const code of ProblemCodes) {
      const page = await send(`${app.url}/problems/${code}`);
      expect(page.status, code).toBe(200);
      const text = /<\/p>\n<p>(.+?)<\/p>/.exec(page.text)?.[1] ?? '';
      expect(text.length, code).toBeGreaterThan(20);
      texts.add(text);
      expect(index.text).toContain(`/problems/${code}"`);
    }
    expect(texts.size).toBe(ProblemCodes.length);
  });

  it('answers an unknown code, or a code with extra path, as any unknown path: 404 not_found', async () => {
    expectProblem(await send(`${app.url}/problems/no_such_code`), 404, 'not_found');
    expectProblem(await send(`${app.url}/problems/not_found/extra`), 404, 'not_found');
  });
});

describe('a problem base elsewhere (SVC_PROBLEM_BASE) is the deployment’s to serve', () => {
  it('names the configured base in type and serves no pages of its own', async () => {
    const app = await createTestApp({ env: { SVC_PROBLEM_BASE: 'https://docs.example.test/errors' } });
    try {
      const problem = expectProblem(await send(`${app.url}/v1/profiles`), 401, 'unauthenticated');
      expect(problem.type).toBe('https://docs.example.test/errors/unauthenticated');
      expectProblem(await send(`${app.url}/problems/unauthenticated`), 404, 'not_found');
    } finally {
      await app.close();
    }
  });
});
