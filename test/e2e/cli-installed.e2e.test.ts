import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { API_VERSION } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/api-harness.js';
import { freshCliBuild } from '../support/cli-build.js';
import {
  completionOf,
  exitOf,
  INSTALLED_SVC,
  listeningUrl,
  spawnInstalledSvc,
} from '../support/cli-process.js';
import { send } from '../support/http.js';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;
/** The CLI's own settings, exported as the README suggests for the operator commands. */
const CLIENT_ENV = { SVC_API_URL: 'http://127.0.0.1:9', SVC_TOKEN: 'svc_not-a-real-token' };
/** No mode and no secret: a storage command must take them from the data dir itself. */
const NO_MODE = { SVC_ENV: '', SVC_SECRET: '' };

const installed = (args: string[], env: Record<string, string> = {}, cwd?: string) =>
  completionOf(spawnInstalledSvc(args, env, cwd));

/**
 * The `svc` command as `npm ci` leaves it (RUNNER.md, issue 30): node_modules/.bin/svc runs the compiled CLI,
 * from the repository root or anywhere else, and its storage commands find the data dir they are pointed at.
 */
describe('the installed svc command (npx svc …)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-installed-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'svc-cwd-'));
  let server: ChildProcessWithoutNullStreams;
  const serverLines: string[] = [];
  let url: string;

  beforeAll(async () => {
    await freshCliBuild();
    server = spawnInstalledSvc(['serve', '--port', '0', '--data-dir', dataDir], {
      SVC_ENV: 'development',
      ...CLIENT_ENV,
    });
    createInterface({ input: server.stdout }).on('line', (line) => serverLines.push(line));
    url = await listeningUrl(server);
  }, 300_000);

  afterAll(() => {
    if (server !== undefined && server.exitCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });

  it('is linked by npm to the committed launcher, which runs the compiled CLI', async () => {
    expect(readlinkSync(INSTALLED_SVC)).toBe('../@svc/cli/bin/svc.js');
    const help = await installed(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['serve', 'migrate', 'accounts', 'invites', 'simulate', 'blocks'])
      expect(help.stdout).toContain(`  ${command}`);
    const npx = await run('npx', ['svc', '--version'], { cwd: ROOT });
    expect(npx.stdout.trim()).toBe(API_VERSION);
  }, 120_000);

  it('stops quietly when its reader closes the pipe early (svc --help | head)', async () => {
    const child = spawnInstalledSvc(['--help']);
    // The read end is closed before the CLI writes: every write it makes meets a closed pipe.
    child.stdout.destroy();
    const answer = await completionOf(child);
    expect(answer.stderr).not.toContain('EPIPE');
    expect(answer.code).toBe(0);
  });

  it('says how to build the CLI when its compiled files are missing, instead of a stack trace', async () => {
    const copy = join(elsewhere, 'cli');
    mkdirSync(join(copy, 'bin'), { recursive: true });
    copyFileSync(join(ROOT, 'packages/cli/bin/svc.js'), join(copy, 'bin/svc.js'));
    const answer = await completionOf(spawn(process.execPath, [join(copy, 'bin/svc.js'), '--help']));
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain('the CLI is not built');
    expect(answer.stderr).toContain('npm run prepare');
  });

  it('serves with the CLI’s client settings exported, and prints where to go next after the listening line', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const lines = await eventually(
      async () => serverLines,
      (found) => found.some((line) => line.includes('walk-through')),
    );
    expect(lines[0]).toBe(`listening on ${url}`);
    const text = lines.join('\n');
    expect(text).toContain(`${url}/docs`);
    expect(text).toContain(`dashboard      ${url.replace('//127.0.0.1:', '//localhost:')}/`);
    expect(text).toContain(join(resolve(dataDir), 'mail'));
    expect(text).toContain(`npx svc accounts set-operator EMAIL --data-dir ${dataDir}`);
    expect(text).toContain('docs/first-ten-minutes.md');
    expect((await send(`${url}/docs`)).status).toBe(200);
  });

  it('hands storage commands to the running server, with the client settings set and no mode given', async () => {
    const signup = await send(`${url}/v1/auth/signup`, {
      method: 'POST',
      body: { email: 'operator@example.test', password: 'correct horse battery' },
    });
    expect(signup.status).toBe(202);
    const flagged = await installed(
      ['accounts', 'set-operator', 'operator@example.test', '--data-dir', dataDir, '--json'],
      { ...CLIENT_ENV, ...NO_MODE },
    );
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(JSON.parse(flagged.stdout)).toMatchObject({ email: 'operator@example.test', is_admin: true });
    expect(flagged.stderr).toContain('handed to the running server');
    expect(flagged.stderr).toContain(`data dir ${resolve(dataDir)} (development: its generated secret)`);
  }, 120_000);

  it('opens a stopped server’s development data dir itself, taking its mode and secret from it', async () => {
    server.kill('SIGTERM');
    expect(await exitOf(server)).toBe(0);
    const created = await installed(['invites', 'create', '--data-dir', dataDir, '--json'], {
      ...CLIENT_ENV,
      ...NO_MODE,
    });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toBe(
      `svc invites create: data dir ${resolve(dataDir)} (development: its generated secret)\n`,
    );
    const { code } = JSON.parse(created.stdout) as { code: string };
    const revoked = await installed(['invites', 'revoke', code, '--data-dir', dataDir], NO_MODE);
    expect(revoked.code, revoked.stderr).toBe(0);
    const unflagged = await installed(
      ['accounts', 'set-operator', 'operator@example.test', '--off', '--data-dir', dataDir],
      { SVC_DATA_DIR: '', ...NO_MODE, ...CLIENT_ENV },
    );
    expect(unflagged.stdout.trim()).toBe('operator@example.test is no longer an operator');
  }, 180_000);

  it('refuses a data dir where no server has run, creating nothing, and names the one it looked at', async () => {
    const missing = join(elsewhere, 'typo');
    const answer = await installed(['accounts', 'set-operator', 'a@example.test', '--data-dir', missing]);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain(`no data dir at ${missing}`);
    expect(existsSync(missing)).toBe(false);
    // Without --data-dir: ./.svc-data of the folder it runs in, which is not created either.
    const here = await installed(['simulate', '--profile', 'abc123'], { SVC_DATA_DIR: '' }, elsewhere);
    expect(here.code).toBe(2);
    expect(here.stderr).toContain(`no data dir at ${join(elsewhere, '.svc-data')}`);
    expect(existsSync(join(elsewhere, '.svc-data'))).toBe(false);
  }, 60_000);

  it('names the missing secret of a production data dir clearly', async () => {
    const production = join(elsewhere, 'production');
    mkdirSync(join(production, 'pg'), { recursive: true });
    const answer = await installed(['invites', 'list', '--data-dir', production], {
      ...NO_MODE,
      SVC_ENV: 'production',
    });
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain('SVC_SECRET: is required in production');
    expect(answer.stderr).toContain(`${production} holds no generated development secret`);
  }, 60_000);
});
