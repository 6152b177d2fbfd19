import {
  ApiError,
  createClient,
  isAborted,
  isKnownValue,
  isNetworkError,
  isRateLimited,
  isTimeout,
  isUnavailable,
  NetworkError,
  type OpenEnum,
  queryRecords,
  RequestAbortedError,
  TimeoutError,
} from '@svc/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Fault, FaultServer, OK, TRANSPORTS, unavailable, waitFor } from './fault-server.js';

/** The SDK's retries, time-outs, aborts, paging and stream resumption, seen from a fault-injecting server. */
export function sdkAgainstFaults(): void {
  describe.each(TRANSPORTS)(
    'SDK retries, time-outs and aborts against a fault-injecting server (%s transport)',
    (transport) => {
      const faults = new FaultServer();
      beforeAll(async () => faults.start());
      afterEach(() => faults.release());
      afterAll(async () => faults.close());

      const client = (options: { maxRetries?: number; timeoutMs?: number } = {}) =>
        createClient({ baseUrl: faults.url, maxRetryDelaySeconds: 0.02, transport, ...options });

      it('retries a GET answered 503 with Retry-After until it succeeds', async () => {
        faults.play(unavailable(), unavailable());
        const answer = await client().request<{ ok: boolean }>({ method: 'GET', path: '/v1/thing' });
        expect(answer.data).toEqual({ ok: true });
        expect(faults.seen).toHaveLength(3);
      });

      it('retries 429, 502 and 504 answers, but not 500', async () => {
        faults.play(
          { kind: 'answer', status: 429, headers: { 'retry-after': '0' }, body: { code: 'rate_limited' } },
          { kind: 'answer', status: 502, body: { code: 'node_error' } },
        );
        expect((await client().request({ method: 'GET', path: '/v1/thing' })).status).toBe(200);
        expect(faults.seen).toHaveLength(3);

        faults.play({ kind: 'answer', status: 504, body: { code: 'node_timeout' } });
        expect((await client().request({ method: 'DELETE', path: '/v1/thing' })).status).toBe(200);
        expect(faults.seen).toHaveLength(2);

        faults.play({ kind: 'answer', status: 500, body: { code: 'internal' } });
        const failure = await client()
          .request({ method: 'GET', path: '/v1/thing' })
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(ApiError);
        expect(faults.seen).toHaveLength(1);
      });

      it('gives up after maxRetries and throws the last answer, with its Retry-After', async () => {
        faults.play(unavailable('1'), unavailable('1'), unavailable('1'), unavailable('1'));
        const failure = await client()
          .request({ method: 'GET', path: '/v1/thing' })
          .catch((error: unknown) => error);
        expect(faults.seen).toHaveLength(3);
        expect(isUnavailable(failure)).toBe(true);
        expect((failure as ApiError).retryAfter).toBe(1);
        expect((failure as ApiError).code).toBe('relay_unavailable');
      });

      it('retries a GET whose connection was reset, before or during the body', async () => {
        faults.play({ kind: 'reset' }, { kind: 'cut-body' });
        const answer = await client().request<{ ok: boolean }>({ method: 'GET', path: '/v1/thing' });
        expect(answer.data).toEqual({ ok: true });
        expect(faults.seen).toHaveLength(3);
      });

      it('never retries a POST without an Idempotency-Key, neither on 503 nor on a reset', async () => {
        faults.play(unavailable());
        const refused = await client()
          .request({ method: 'POST', path: '/v1/thing', body: {} })
          .catch((error: unknown) => error);
        expect(isUnavailable(refused)).toBe(true);
        expect(faults.seen).toHaveLength(1);

        faults.play({ kind: 'reset' });
        const reset = await client()
          .request({ method: 'POST', path: '/v1/thing', body: {} })
          .catch((error: unknown) => error);
        expect(reset).toBeInstanceOf(NetworkError);
        expect(isNetworkError(reset)).toBe(true);
        expect(reset).not.toBeInstanceOf(ApiError);
        expect(faults.seen).toHaveLength(1);
      });

      it('retries a creating POST, sending the same generated Idempotency-Key every time', async () => {
        faults.play(unavailable(), { kind: 'reset' }, { kind: 'answer', status: 201, body: { id: 'p1' } });
        const created = await client().profiles.create({ name: 'Home' });
        expect(created).toEqual({ id: 'p1' });
        expect(faults.seen).toHaveLength(3);
        const keys = new Set(faults.seen.map((each) => each.idempotencyKey));
        expect(keys.size).toBe(1);
        expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);

        faults.play(OK);
        await client().profiles.create({ name: 'Home' });
        expect(faults.seen[0]?.idempotencyKey).not.toBe([...keys][0]);
      });

      it('retries a creating POST told 409 idempotency_in_progress after its Retry-After, but no other 409', async () => {
        faults.play(
          {
            kind: 'answer',
            status: 409,
            headers: { 'retry-after': '0' },
            body: { code: 'idempotency_in_progress' },
          },
          { kind: 'answer', status: 201, body: { id: 'p2' } },
        );
        expect(await client().profiles.create({ name: 'Home' })).toEqual({ id: 'p2' });
        expect(faults.seen).toHaveLength(2);
        expect(new Set(faults.seen.map((each) => each.idempotencyKey)).size).toBe(1);

        faults.play({ kind: 'answer', status: 409, body: { code: 'idempotency_key_reused' } });
        const reused = await client()
          .profiles.create({ name: 'Home' })
          .catch((error: unknown) => error);
        expect((reused as ApiError).code).toBe('idempotency_key_reused');
        expect(faults.seen).toHaveLength(1);
      });

      it('takes maxRetries from the client, then per call through withOptions or the request', async () => {
        faults.play(unavailable(), unavailable());
        await expect(client({ maxRetries: 0 }).request({ method: 'GET', path: '/v1/thing' })).rejects.toThrow(
          ApiError,
        );
        expect(faults.seen).toHaveLength(1);

        faults.play(unavailable(), unavailable());
        await expect(client().withOptions({ maxRetries: 0 }).meta.get()).rejects.toThrow(ApiError);
        expect(faults.seen).toHaveLength(1);

        faults.play(unavailable(), unavailable(), unavailable());
        await expect(
          client({ maxRetries: 0 }).request({ method: 'GET', path: '/v1/thing', maxRetries: 3 }),
        ).resolves.toMatchObject({ status: 200 });
        expect(faults.seen).toHaveLength(4);
      });

      it('throws TimeoutError, a NetworkError, when no answer comes in time, after retrying a safe call', async () => {
        faults.play({ kind: 'hang' }, { kind: 'hang' });
        const failure = await client({ timeoutMs: 300, maxRetries: 1 })
          .request({ method: 'GET', path: '/v1/thing' })
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(TimeoutError);
        expect(failure).toBeInstanceOf(NetworkError);
        expect(isTimeout(failure)).toBe(true);
        expect((failure as TimeoutError).timeoutMs).toBe(300);
        expect(faults.seen).toHaveLength(2);

        faults.play({ kind: 'hang' });
        const once = await client()
          .withOptions({ timeoutMs: 300 })
          .request({ method: 'POST', path: '/v1/thing', body: {} })
          .catch((error: unknown) => error);
        expect(isTimeout(once)).toBe(true);
        expect(faults.seen).toHaveLength(1);
      });

      it('throws RequestAbortedError when the caller aborts, and does not retry', async () => {
        faults.play({ kind: 'hang' }, { kind: 'hang' });
        const controller = new AbortController();
        const call = client()
          .withOptions({ signal: controller.signal })
          .meta.get()
          .catch((error: unknown) => error);
        await waitFor(() => faults.seen.length === 1);
        controller.abort();
        const failure = await call;
        expect(failure).toBeInstanceOf(RequestAbortedError);
        expect(isAborted(failure)).toBe(true);
        expect(isNetworkError(failure)).toBe(false);
        expect(faults.seen).toHaveLength(1);

        await expect(
          client().request({ method: 'GET', path: '/v1/thing', signal: AbortSignal.abort() }),
        ).rejects.toThrow(RequestAbortedError);
        expect(faults.seen).toHaveLength(1);
      });

      it('passes unknown fields and unknown enum values of an answer through untouched', async () => {
        const future = {
          id: 'p1',
          name: 'Home',
          version: 3,
          status: 'a_status_from_a_newer_server',
          added_later: { nested: [1, 2] },
        };
        faults.play({ kind: 'answer', status: 200, body: future });
        const profile = await client().profiles.get('p1');
        expect(profile).toEqual(future);
        const status: OpenEnum<'active' | 'suspended'> = (profile as { status?: string }).status ?? '';
        expect(isKnownValue(['active', 'suspended'], status)).toBe(false);
        expect(isKnownValue(['active', 'suspended'], 'active')).toBe(true);
      });

      it('pages a log search by next_cursor until it is null, and reads rows by column name', async () => {
        const page = (rows: string[][], next: string | null): Fault => ({
          kind: 'answer',
          status: 200,
          body: { columns: [{ name: 'qname', type: 'string' }], rows, next_cursor: next },
        });
        faults.play(page([['a.example']], 'c1'), page([['b.example']], 'c2'), page([], null));
        const names: unknown[] = [];
        for await (const each of client().profiles.logs.pages('p1', { qname: 'example' }))
          names.push(...queryRecords(each).map((record) => record.qname));
        expect(names).toEqual(['a.example', 'b.example']);
        const sent = faults.seen.map((each) => new URL(each.url, faults.url).searchParams);
        expect(sent.map((params) => params.get('cursor'))).toEqual([null, 'c1', 'c2']);
        expect(
          sent.every((params) => params.get('mode') === 'search' && params.get('qname') === 'example'),
        ).toBe(true);
      });

      it('resumes the live log stream with Last-Event-ID after the connection drops', async () => {
        const rows = (qname: string, id: string) =>
          `event: rows\nid: ${id}\ndata: ${JSON.stringify({ columns: [{ name: 'qname', type: 'string' }], rows: [[qname]], next_cursor: id })}\n\n`;
        const fatal = `event: error\ndata: ${JSON.stringify({ status: 404, code: 'not_found', title: 'Gone' })}\n\n`;
        faults.play(
          { kind: 'events', text: `: hello\n\n${rows('a.example', 'c1')}` },
          { kind: 'reset' },
          { kind: 'events', text: `${rows('b.example', 'c2')}${fatal}` },
        );
        const seen: string[] = [];
        const stream = client().profiles.logs.stream('p1', {
          reconnectDelayMs: 1,
          onConnection: (change) =>
            seen.push(change.state === 'open' ? 'open' : `reconnecting:${change.cause !== undefined}`),
        });
        for await (const event of stream) {
          if (event.type === 'rows') seen.push(...queryRecords(event.result).map((row) => String(row.qname)));
          else if (event.type === 'error') seen.push(`error:${event.problem.code}:${event.transient}`);
        }
        // The connection's changes arrive in order with the rows, so an interface can say when it is live.
        expect(seen).toEqual([
          'open',
          'a.example',
          'reconnecting:true',
          'reconnecting:true',
          'open',
          'b.example',
          'error:not_found:false',
        ]);
        expect(faults.seen.map((each) => each.lastEventId)).toEqual([undefined, 'c1', 'c1']);
      });

      it('narrows a 429 with isRateLimited and keeps its retryAfter', async () => {
        faults.play({
          kind: 'answer',
          status: 429,
          headers: { 'retry-after': '7' },
          body: { status: 429, code: 'rate_limited', title: 'Too many requests' },
        });
        const failure = await client({ maxRetries: 0 })
          .request({ method: 'GET', path: '/v1/thing' })
          .catch((error: unknown) => error);
        expect(isRateLimited(failure)).toBe(true);
        if (isRateLimited(failure)) expect(failure.retryAfter).toBe(7);
      });
    },
  );
}
