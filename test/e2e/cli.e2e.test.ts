import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, listeningUrl, runSvc, spawnSvc, svcBuilt } from '../support/cli-process.js';
import { send } from '../support/http.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

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
    [
      'a heap growth that is not a whole percentage',
      { SVC_HEAP_GROWTH_PERCENT: '12.5' },
      'SVC_HEAP_GROWTH_PERCENT',
    ],
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

describe('svc invites and svc accounts, with and without a running server (RUNNER.md)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-identity-'));
  const env = { SVC_ENV: 'development', SVC_SIGNUP_MODE: 'invite' };
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

  const signup = (email: string, inviteCode?: string) =>
    send(`${url}/v1/auth/signup`, {
      method: 'POST',
      body: {
        email,
        password: 'correct horse battery',
        ...(inviteCode === undefined ? {} : { invite_code: inviteCode }),
      },
    });

  it('creates an invite through the running server; it admits exactly its uses, then revokes', async () => {
    const created = await runSvc(
      ['invites', 'create', '--uses', '1', '--expires', '7d', '--data-dir', dataDir, '--json'],
      env,
    );
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('svc invites create: handed to the running server');
    const { code, invite } = JSON.parse(created.stdout) as {
      code: string;
      invite: { max_uses: number; live: boolean };
    };
    expect(code).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
    expect(invite).toMatchObject({ max_uses: 1, live: true });

    expect((await signup('first@example.test', code)).status).toBe(202);
    const exhausted = await signup('second@example.test', code);
    expect(exhausted.status).toBe(403);
    expect((exhausted.json as { code: string }).code).toBe('invite_required');

    const listed = await runSvc(['invites', 'list', '--data-dir', dataDir, '--json'], env);
    const invites = JSON.parse(listed.stdout) as { uses: number; live: boolean; prefix: string }[];
    expect(invites).toEqual([expect.objectContaining({ uses: 1, live: false, prefix: code.slice(0, 10) })]);
    expect(listed.stdout).not.toContain(code);
  }, 60_000);

  it('flags an account as an operator; the account then reads is_admin true', async () => {
    const flagged = await runSvc(
      ['accounts', 'set-operator', 'first@example.test', '--data-dir', dataDir, '--json'],
      env,
    );
    expect(flagged.code).toBe(0);
    expect(JSON.parse(flagged.stdout)).toMatchObject({ email: 'first@example.test', is_admin: true });
    const login = await send(`${url}/v1/auth/login`, {
      method: 'POST',
      body: { email: 'first@example.test', password: 'correct horse battery' },
    });
    expect((login.json as { account: { is_admin: boolean } }).account.is_admin).toBe(true);
    const unknown = await runSvc(
      ['accounts', 'set-operator', 'nobody@example.test', '--data-dir', dataDir],
      env,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not found');
  }, 60_000);

  it('runs the storage commands on the engines itself once the server has stopped', async () => {
    server.kill('SIGTERM');
    expect(await exitOf(server)).toBe(0);
    const revoke = await runSvc(['invites', 'create', '--uses', '3', '--data-dir', dataDir, '--json'], env);
    expect(revoke.stderr).not.toContain('handed to the running server');
    const { code } = JSON.parse(revoke.stdout) as { code: string };
    const revoked = await runSvc(['invites', 'revoke', code, '--data-dir', dataDir], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout.trim()).toBe('revoked');
    const again = await runSvc(['invites', 'revoke', code, '--data-dir', dataDir], env);
    expect(again.code).toBe(1);
    const off = await runSvc(
      ['accounts', 'set-operator', 'first@example.test', '--off', '--data-dir', dataDir],
      env,
    );
    expect(off.stdout.trim()).toBe('first@example.test is no longer an operator');
    const usage = await runSvc(['invites', 'create', '--expires', 'soon', '--data-dir', dataDir], env);
    expect(usage.code).not.toBe(0);
  }, 120_000);
});
