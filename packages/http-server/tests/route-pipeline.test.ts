import type { AddressInfo } from 'node:net';
import { AesGcmSecretBox, HmacKeyedHash, MemoryIdempotencyStore } from '@svc/adapters';
import { IdempotencyService } from '@svc/domain';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ClientIpRateLimiter } from '../src/http/rate-limit.js';
import { localsOf } from '../src/http/request-locals.js';
import { routePipeline } from '../src/http/route-pipeline.js';
import { writeProblem } from '../src/http/send-problem.js';
import { problemFromError } from '../src/problems/problem-document.js';
import { defineRoute } from '../src/routes/route-definition.js';

/**
 * The route pipeline on its own (docs/architecture.md, step 2): one route of auth `none` behind the locals the
 * first middleware sets and the one problem mapper, with real idempotency and rate limiting in memory.
 */
describe(routePipeline.name, () => {
  let url: string;
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  const handled: unknown[] = [];

  const route = defineRoute({
    method: 'post',
    path: '/v1/things',
    operationId: 'createThing',
    summary: 'Creates a thing',
    tags: ['things'],
    auth: 'none',
    idempotent: true,
    request: { body: z.object({ name: z.string().min(1) }) },
    responses: { 201: { description: 'Created' } },
    handler: async (context) => {
      handled.push(context.body);
      return { status: 201, body: { id: handled.length, name: context.body.name } };
    },
  });

  beforeAll(async () => {
    const app = express();
    app.use((_req: Request, res: Response, next: NextFunction) => {
      Object.assign(localsOf(res), { requestId: 'req-1', clientIp: '192.0.2.1', principal: null });
      next();
    });
    app.use(express.json());
    app.post(
      '/v1/things',
      routePipeline(route, {
        authenticator: { authenticate: async () => null },
        idempotency: new IdempotencyService(
          new MemoryIdempotencyStore(),
          { now: () => new Date() },
          new AesGcmSecretBox('a test secret of at least 32 chars.'),
        ),
        keyedHash: new HmacKeyedHash('a test secret of at least 32 chars.'),
        rateLimiter: new ClientIpRateLimiter(8),
        origins: { dashboard: new Set(), signup: new Set() },
        requireStrongAdminSignIn: false,
        clock: { now: () => new Date() },
      }),
    );
    app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      writeProblem(
        res,
        problemFromError(error, { requestId: 'req-1', problemBase: 'https://svc.test/problems/' }),
      );
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/things`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  it('hands the parsed body to the handler and answers what it returns', async () => {
    const answer = await post(JSON.stringify({ name: 'first' }));
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ id: handled.length, name: 'first' });
    expect(handled.at(-1)).toEqual({ name: 'first' });
  });

  it('answers 422 validation_failed naming the field, without running the handler', async () => {
    const before = handled.length;
    const answer = await post(JSON.stringify({ name: '' }));
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await answer.json()) as { code: string; errors: { field: string }[] };
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors.map((error) => error.field)).toEqual(['name']);
    expect(handled).toHaveLength(before);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const answer = await post('name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(answer.status).toBe(415);
    expect(((await answer.json()) as { code: string }).code).toBe('unsupported_media_type');
  });

  it('replays the first answer to a request sent again with its Idempotency-Key, running the handler once', async () => {
    const before = handled.length;
    const first = await post(JSON.stringify({ name: 'once' }), { 'idempotency-key': 'key-1' });
    const again = await post(JSON.stringify({ name: 'once' }), { 'idempotency-key': 'key-1' });
    expect(again.status).toBe(first.status);
    expect(await again.json()).toEqual(await first.json());
    expect(handled).toHaveLength(before + 1);
    const reused = await post(JSON.stringify({ name: 'other' }), { 'idempotency-key': 'key-1' });
    expect(((await reused.json()) as { code: string }).code).toBe('idempotency_key_reused');
  });

  it('answers 429 rate_limited with Retry-After past the per-client limit of an unauthenticated route', async () => {
    let answer = await post(JSON.stringify({ name: 'flood' }));
    for (let sent = 1; answer.status !== 429 && sent <= 8; sent += 1)
      answer = await post(JSON.stringify({ name: 'flood' }));
    expect(answer.status).toBe(429);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await answer.json()) as { code: string }).code).toBe('rate_limited');
  });
});
