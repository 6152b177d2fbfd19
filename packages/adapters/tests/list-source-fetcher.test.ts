import { gzipSync } from 'node:zlib';
import { UndiciListSourceFetcher } from '@svc/adapters';
import { SourceFetchError } from '@svc/domain';
import { ListSourceServer } from '@svc/testing/list-source';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const NONE = { etag: null, lastModified: null };

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

async function failure(promise: Promise<unknown>): Promise<SourceFetchError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof SourceFetchError))
    throw new Error(`expected a SourceFetchError, got ${String(error)}`);
  return error;
}

describe(UndiciListSourceFetcher.name, () => {
  let server: ListSourceServer;
  const fetcher = new UndiciListSourceFetcher({
    maxBytes: 64 * 1024,
    timeoutMs: 1_000,
    attempts: 3,
    backoffMs: 10,
  });

  beforeAll(async () => {
    server = await ListSourceServer.start();
  });
  afterAll(() => server.close());

  it('fetches a list with its validators, then answers not_modified to a conditional GET', async () => {
    server.route('/hosts', {
      body: '0.0.0.0 ads.example\n',
      etag: '"v1"',
      lastModified: 'Wed, 25 Nov 2026 06:00:00 GMT',
    });
    const first = await fetcher.fetch(`${server.url}/hosts`, NONE, text);
    expect(first).toEqual({
      status: 'fetched',
      httpStatus: 200,
      validators: { etag: '"v1"', lastModified: 'Wed, 25 Nov 2026 06:00:00 GMT' },
      result: '0.0.0.0 ads.example\n',
    });
    if (first.status !== 'fetched') throw new Error('fetched');
    const second = await fetcher.fetch(`${server.url}/hosts`, first.validators, text);
    expect(second).toEqual({ status: 'not_modified', httpStatus: 304 });
    const request = server.requests.at(-1);
    expect(request?.headers['if-none-match']).toBe('"v1"');
    expect(request?.headers['if-modified-since']).toBe('Wed, 25 Nov 2026 06:00:00 GMT');
  });

  it('retries a source answering 500, then fails with the status', async () => {
    server.route('/broken', { status: 500, body: 'oops' });
    const before = server.hits('/broken');
    const error = await failure(fetcher.fetch(`${server.url}/broken`, NONE, text));
    expect(error).toMatchObject({ reason: 'http_status', httpStatus: 500 });
    expect(server.hits('/broken') - before).toBe(3);
  });

  it('does not retry a 404', async () => {
    const before = server.hits('/missing');
    const error = await failure(fetcher.fetch(`${server.url}/missing`, NONE, text));
    expect(error).toMatchObject({ reason: 'http_status', httpStatus: 404 });
    expect(server.hits('/missing') - before).toBe(1);
  });

  it('gives up on a slow source after the time-out of each attempt', async () => {
    server.route('/slow', { body: 'late.example\n', bodyDelayMs: 5_000 });
    const quick = new UndiciListSourceFetcher({ maxBytes: 1024, timeoutMs: 200, attempts: 2, backoffMs: 10 });
    const error = await failure(quick.fetch(`${server.url}/slow`, NONE, text));
    expect(error.reason).toBe('timeout');
    expect(server.hits('/slow')).toBe(2);
  });

  it('refuses a body past the size cap, declared or streamed, without retrying', async () => {
    server.route('/declared', { body: 'x'.repeat(70 * 1024) });
    expect((await failure(fetcher.fetch(`${server.url}/declared`, NONE, text))).reason).toBe('too_large');
    server.route('/endless', { streamBytes: 10 * 1024 * 1024 });
    const before = server.hits('/endless');
    expect((await failure(fetcher.fetch(`${server.url}/endless`, NONE, text))).reason).toBe('too_large');
    expect(server.hits('/endless') - before).toBe(1);
  });

  it('decompresses a gzip body and caps what it expands to', async () => {
    server.route('/gzip', { body: '0.0.0.0 zipped.example\n', gzip: true });
    const fetched = await fetcher.fetch(`${server.url}/gzip`, NONE, text);
    expect(fetched.status === 'fetched' && fetched.result).toBe('0.0.0.0 zipped.example\n');
    // A few hundred bytes that expand past the cap.
    server.route('/bomb', {
      body: gzipSync(Buffer.alloc(1024 * 1024, 0x61)),
      headers: { 'content-encoding': 'gzip' },
    });
    expect((await failure(fetcher.fetch(`${server.url}/bomb`, NONE, text))).reason).toBe('too_large');
    server.route('/corrupt', {
      body: Buffer.from('not gzip at all'),
      headers: { 'content-encoding': 'gzip' },
    });
    expect((await failure(fetcher.fetch(`${server.url}/corrupt`, NONE, text))).reason).toBe('unreadable');
  });

  it('follows a redirect to plain http on a loopback address when SVC_OUTBOUND_ALLOW_PRIVATE allows it', async () => {
    const allowing = new UndiciListSourceFetcher({
      maxBytes: 64 * 1024,
      timeoutMs: 1_000,
      allowPrivate: true,
    });
    server.route('/moved', { redirectTo: '/hosts' });
    const fetched = await allowing.fetch(`${server.url}/moved`, NONE, text);
    expect(fetched).toMatchObject({ status: 'fetched', result: '0.0.0.0 ads.example\n' });
  });

  it('refuses, without retrying, a redirect to http or to a loopback, private or link-local address (issue 35)', async () => {
    const port = new URL(server.url).port;
    const targets: [string, RegExp][] = [
      ['/hosts', /http:\/\/ is refused \(https only\)/],
      [`http://example.com/hosts`, /http:\/\/ is refused/],
      [`https://127.0.0.1:${port}/hosts`, /127\.0\.0\.1 is a loopback address/],
      ['https://10.0.0.1/hosts', /10\.0\.0\.1 is a private address/],
      ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a linkLocal address/],
      [`https://[::1]:${port}/hosts`, /::1 is a loopback address/],
      [`https://[::ffff:127.0.0.1]:${port}/hosts`, /is a loopback address/],
      ['https://[fd00::1]/hosts', /is a uniqueLocal address/],
      [`https://localhost:${port}/hosts`, /localhost resolves to (127\.0\.0\.1|::1), a loopback address/],
    ];
    for (const [location, reason] of targets) {
      server.route('/moved', { redirectTo: location });
      const before = server.hits('/hosts');
      const moved = server.hits('/moved');
      const error = await failure(fetcher.fetch(`${server.url}/moved`, NONE, text));
      expect(error.reason, location).toBe('forbidden_target');
      expect(error.message).toMatch(reason);
      expect(error.message).toContain('SVC_OUTBOUND_ALLOW_PRIVATE=true');
      expect(server.hits('/hosts'), location).toBe(before);
      expect(server.hits('/moved'), location).toBe(moved + 1);
    }
  });

  it('waits as long as a 503 Retry-After asks, within the cap', async () => {
    server.route('/busy', { status: 503, headers: { 'retry-after': '0' } });
    const error = await failure(fetcher.fetch(`${server.url}/busy`, NONE, text));
    expect(error).toMatchObject({ reason: 'http_status', httpStatus: 503 });
  });

  it('reports an unreachable source as a network failure', async () => {
    const closed = await ListSourceServer.start();
    const url = closed.url;
    await closed.close();
    expect((await failure(fetcher.fetch(`${url}/gone`, NONE, text))).reason).toBe('network');
  });

  it('passes the consumer’s own failure through untouched', async () => {
    const own = new Error('the store is full');
    await expect(
      fetcher.fetch(`${server.url}/hosts`, NONE, async () => {
        throw own;
      }),
    ).rejects.toBe(own);
  });
});
