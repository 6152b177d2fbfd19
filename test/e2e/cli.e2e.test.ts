import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, listeningUrl, runSvc, spawnSvc } from '../support/cli-process.js';
import { send } from '../support/http.js';

describe('svc serve and svc migrate on the embedded default (RUNNER.md)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  const env = { SVC_ENV: 'development' };
  let server: ChildProcessWithoutNullStreams;
  let url: string;

  beforeAll(async () => {
    server = spawnSvc(['serve', '--port', '0', '--data-dir', dataDir], env);
    url = await listeningUrl(server);
  }, 120_000);

  afterAll(() => {
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the listening line with the port it picked and answers requests', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toMatch(/:0$/);
    const answer = await send(`${url}/v1/meta`);
    expect(answer.status).toBe(200);
    expect((answer.json as { environment: string }).environment).toBe('development');
  });

  it('hands svc migrate to the running server through its control socket', async () => {
    const result = await runSvc(['migrate', '--data-dir', dataDir, '--json'], env);
    expect(result.stderr).toContain('handed to the running server');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ postgres: [], columnar: [] });
  }, 60_000);

  it('refuses a second server on the same data dir', async () => {
    const second = await runSvc(['serve', '--port', '0', '--data-dir', dataDir], env);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain('already holds the embedded engines');
  }, 60_000);

  it('stops on SIGTERM with exit code 0, after which svc migrate opens the engines itself', async () => {
    server.kill('SIGTERM');
    expect(await exitOf(server)).toBe(0);
    const result = await runSvc(['migrate', '--data-dir', dataDir], env);
    expect(result.stderr).not.toContain('handed to the running server');
    expect(result.stdout.trim()).toBe('schema is up to date');
    expect(result.code).toBe(0);
  }, 120_000);
});

describe('settings are validated at start (RUNNER.md)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-settings-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    ['a malformed port', { PORT: 'eighty' }, 'PORT'],
    ['an unknown SVC_ setting', { SVC_SIGNUP_MOOD: 'open' }, 'SVC_SIGNUP_MOOD'],
    ['a database URL of another scheme', { DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    ['production without a secret', { SVC_ENV: 'production' }, 'SVC_SECRET'],
  ])(
    'stops on %s with a message naming it and exit code 2',
    async (_case, env, setting) => {
      const result = await runSvc(['serve', '--data-dir', dataDir], {
        SVC_ENV: 'development',
        PORT: '0',
        ...env,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(setting);
    },
    30_000,
  );
});
