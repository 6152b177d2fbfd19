import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkThroughBlock } from '../docs/write-docs.js';
import { completionOf, listeningUrl, spawnSvc, svcBuilt } from '../support/cli-process.js';
import { send } from '../support/http.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const codeBlock = walkThroughBlock;

/**
 * docs/first-ten-minutes.md, run as pasted (issue 30): its curl script in bash and its SDK script in node,
 * from the repository root, against `svc serve` in development mode as `npm start` runs it. Only where the
 * server listens and its data dir differ from a newcomer's, through the variables the scripts read.
 */
describe('the first ten minutes (docs/first-ten-minutes.md) against a real server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-first-minutes-'));
  let server: ChildProcessWithoutNullStreams;
  let url: string;

  beforeAll(async () => {
    await svcBuilt();
    server = spawnSvc(['serve', '--port', '0', '--data-dir', dataDir], { SVC_ENV: 'development' });
    url = await listeningUrl(server);
  }, 300_000);

  afterAll(() => {
    if (server !== undefined && server.exitCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const environment = (email: string) => ({ API: url, DATA: dataDir, EMAIL: email, SVC_LOG_LEVEL: 'warn' });

  it('runs the curl walk-through: sign-up to analytics, then an operator', async () => {
    const email = 'curl@example.test';
    const result = await completionOf(
      spawn('bash', ['-euo', 'pipefail', '-c', codeBlock('sh')], {
        cwd: ROOT,
        env: { ...process.env, ...environment(email) },
      }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('{"status":"verification_sent"}');
    const profileId = /^profile ([a-z0-9]{6})$/m.exec(result.stdout)?.[1];
    expect(profileId, result.stdout).toBeDefined();
    expect(result.stdout).toContain(`simulated 2000 queries for profile ${profileId}`);
    expect(result.stderr).toContain('svc simulate: handed to the running server');
    // counts_by_status, then top_blocked: query results with rows; the rules decided some queries.
    const results = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { columns?: string[]; rows?: unknown[][] })
      .filter((answer) => Array.isArray(answer.columns));
    expect(results.length).toBeGreaterThanOrEqual(3);
    expect(results[0]?.rows?.length).toBeGreaterThan(0);
    expect(JSON.stringify(results[0]?.rows)).toContain('blocked');
    expect(result.stdout).toContain(`${email} is now an operator`);
    const login = await send(`${url}/v1/auth/login`, {
      method: 'POST',
      body: { email, password: 'correct horse battery staple' },
    });
    expect(login.json).toMatchObject({
      account: { email, is_admin: true, email_verified_at: expect.any(String) },
    });
  }, 300_000);

  it('runs the SDK walk-through to the same end', async () => {
    const result = await completionOf(
      spawn(process.execPath, ['--input-type=module', '-e', codeBlock('js')], {
        cwd: ROOT,
        env: { ...process.env, ...environment('sdk@example.test') },
      }),
    );
    expect(result.code, result.stderr).toBe(0);
    const line = /^profile ([a-z0-9]{6}): (.+)$/m.exec(result.stdout);
    expect(line, result.stdout).not.toBeNull();
    expect(JSON.parse(line?.[2] ?? '[]')).not.toEqual([]);
    expect(result.stdout).toContain(`simulated 2000 queries for profile ${line?.[1]}`);
  }, 300_000);
});
