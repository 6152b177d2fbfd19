import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { MemoryMailer } from '@svc/adapters';
import { Mailer } from '@svc/domain';
import { parseSettings, type RunningServer, startServer } from '@svc/http-server';
import { ManualClock } from '@svc/testing/clock';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import type { ApiHarness } from '../../support/api-harness.js';
import { exitOf, listeningUrl, spawnSvc, svcBuilt } from '../../support/cli-process.js';
import { send } from '../../support/http.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

type LogLine = Record<string, unknown>;

function parsed(text: string): LogLine | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as LogLine) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One structured JSON line per API request at info (issue 10): method, route template, status, duration,
 * request id (the X-Request-Id answered), principal kind and organisation; never a credential, cookie,
 * password or raw path.
 */
describe('request log lines', () => {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  let server: RunningServer;
  let owner: TestAccount;

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString('utf8').split('\n')) {
          if (text.length === 0) continue;
          raw.push(text);
          const line = parsed(text);
          if (line !== undefined) lines.push(line);
        }
        done();
      },
    });
    const clock = new ManualClock();
    server = await startServer({
      settings: parseSettings({
        SVC_ENV: 'development',
        PORT: '0',
        SVC_SECRET: 'request-log-secret-that-is-long-enough-0123456789',
        SVC_DATA_DIR: '/nonexistent-svc-request-log',
      }),
      logger: pino({ level: 'info' }, destination),
      storage: 'memory',
      clock,
    });
    const mailer = server.container.get<MemoryMailer>(Mailer);
    const harness: ApiHarness = {
      url: server.url,
      clock,
      container: server.container,
      mailTo: async (address) => mailer.to(address).map((message) => message.text),
      close: () => server.close(),
    };
    owner = await createAccount(harness);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const lineOf = (requestId: string | undefined): LogLine | undefined =>
    lines.find((line) => line.msg === 'request' && line.request_id === requestId);

  it('logs a token request with its request id, route template, status, principal and organisation', async () => {
    const created = await send(`${server.url}/v1/profiles`, {
      method: 'POST',
      headers: owner.auth,
      body: {},
    });
    const id = (created.json as { id: string }).id;
    const read = await send(`${server.url}/v1/profiles/${id}?fields=all`, { headers: owner.auth });
    expect(read.status).toBe(200);
    const requestId = read.headers['x-request-id'];
    const line = lineOf(requestId);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request',
      request_id: requestId,
      method: 'GET',
      route: '/v1/profiles/{id}',
      status: 200,
      principal: 'token',
    });
    expect(typeof line?.org_id).toBe('string');
    expect(typeof line?.duration_ms).toBe('number');
    expect(JSON.stringify(line)).not.toContain(id);
  });

  it('logs refused and unmatched requests as anonymous, without their path', async () => {
    const refused = await send(`${server.url}/v1/profiles`, {
      headers: { authorization: 'Bearer svc_not_a_real_token_0123456789' },
    });
    expect(refused.status).toBe(401);
    expect(lineOf(refused.headers['x-request-id'])).toMatchObject({
      status: 401,
      route: '/v1/profiles',
      principal: 'anonymous',
    });
    const unmatched = await send(`${server.url}/v1/nothing-here/secret-looking-path`);
    expect(lineOf(unmatched.headers['x-request-id'])).toMatchObject({ status: 404, route: 'unmatched' });
  });

  it('never writes a credential, cookie or password into the log', () => {
    const everything = raw.join('\n');
    expect(everything).not.toContain(owner.token);
    expect(everything).not.toContain(owner.cookie);
    expect(everything).not.toContain('correct horse battery');
    expect(everything).not.toContain('svc_not_a_real_token_0123456789');
    expect(everything).not.toContain('secret-looking-path');
  });
});

/** `svc serve` honours SVC_LOG_LEVEL and writes the request lines as JSON on stdout (RUNNER.md). */
describe('svc serve request logs on stdout', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-request-log-'));
  const stdout: LogLine[] = [];
  let child: ChildProcessWithoutNullStreams;
  let url: string;

  beforeAll(async () => {
    child = spawnSvc(['serve', '--port', '0', '--data-dir', dataDir], {
      SVC_ENV: 'development',
      SVC_LOG_LEVEL: 'info',
    });
    createInterface({ input: child.stdout }).on('line', (text) => {
      const line = parsed(text);
      if (line !== undefined) stdout.push(line);
    });
    url = await listeningUrl(child);
  }, 120_000);
  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes one info line per request carrying the X-Request-Id answered, then exits 0 on SIGTERM', async () => {
    const answer = await send(`${url}/v1/meta`);
    expect(answer.status).toBe(200);
    const requestId = answer.headers['x-request-id'];
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
    expect(stdout.find((line) => line.request_id === requestId)).toMatchObject({
      level: 30,
      msg: 'request',
      route: '/v1/meta',
      status: 200,
      principal: 'anonymous',
    });
    expect(stdout.some((line) => line.msg === 'shutting down')).toBe(true);
  }, 60_000);
});
