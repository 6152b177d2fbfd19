import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BLOCKLIST_CATALOGUE } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { completionOf, runSvc, spawnSvc, svcBuilt } from '../../support/cli-process.js';
import { send } from '../../support/http.js';
import { createOperator, type TestOperator } from './operator-fixture.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

/**
 * The operator CLI as a subprocess against a running server (RUNNER.md "Other commands"): API-client
 * commands with --api-url/SVC_API_URL and --token/SVC_TOKEN or a 0600 config file, human tables or --json,
 * --yes for destructive actions (refused without a terminal), exit codes 0, 1 (problem code printed), 2 (usage).
 */
describe('svc operator commands against a running server (RUNNER.md, spec 4.10)', () => {
  let api: ApiHarness;
  let operator: TestOperator;
  let owner: TestAccount;
  let adminToken: string;
  const scratch = mkdtempSync(join(tmpdir(), 'svc-cli-admin-'));

  beforeAll(async () => {
    api = await startApi('memory');
    operator = await createOperator(api);
    owner = await createAccount(api);
    adminToken = (operator.admin.authorization ?? '').replace('Bearer ', '');
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Runs svc with the operator's credentials from the environment (no config file). */
  const svc = (args: string[], env: Record<string, string> = {}) =>
    runSvc(args, {
      SVC_API_URL: api.url,
      SVC_TOKEN: adminToken,
      XDG_CONFIG_HOME: scratch,
      ...env,
    });
  const svcNoConfig = (args: string[]) =>
    runSvc(args, { XDG_CONFIG_HOME: scratch, SVC_API_URL: '', SVC_TOKEN: '' });

  it('creates, lists and removes operator blocks; 409 block_exists is exit 1 with the code printed', async () => {
    const created = await svc([
      'blocks',
      'create',
      'Ads.Example.org',
      '--reason-code',
      'legal_order',
      '--note',
      'ticket 77',
      '--pop',
      'fra1',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const change = JSON.parse(created.stdout) as {
      block: { id: string; pattern: string; pops: string[] };
      file_version: number;
    };
    expect(change.block).toMatchObject({ pattern: 'ads.example.org', pops: ['fra1'] });
    expect(change.file_version).toBeGreaterThanOrEqual(1);

    const duplicate = await svc(['blocks', 'add', 'ads.example.org', '--reason-code', 'abuse']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('block_exists');

    const listed = await svc(['blocks', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+PATTERN\s+REASON\s+SCOPE\s+STATE/);
    expect(listed.stdout).toContain('ads.example.org');

    const refused = await svc(['blocks', 'remove', change.block.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');

    const removed = await svc(['blocks', 'remove', change.block.id, '--yes', '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    const after = JSON.parse(removed.stdout) as {
      block: { removed_at: string | null };
      file_version: number;
    };
    expect(after.block.removed_at).not.toBeNull();
    expect(after.file_version).toBe(change.file_version + 1);
    const live = await svc(['blocks', 'list', '--status', 'live', '--json']);
    expect(JSON.parse(live.stdout)).toEqual([]);
  }, 300_000);

  it('answers bad usage with exit 2 and an API problem with exit 1', async () => {
    expect((await svc(['blocks', 'create', 'x.example', '--reason-code', 'spam'])).code).toBe(2);
    expect((await svc(['blocks', 'create', 'x.example'])).code).toBe(2);
    expect((await svc(['blocks', 'list', '--limit', '0'])).code).toBe(2);
    const noToken = await svcNoConfig(['blocks', 'list', '--api-url', api.url]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('SVC_TOKEN');
    const invalid = await svc(['blocks', 'create', 'a b', '--reason-code', 'abuse', '--json']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('validation_failed');
    expect(JSON.parse(invalid.stdout)).toMatchObject({ code: 'validation_failed' });
    const customer = await svc(['blocks', 'list'], { SVC_TOKEN: owner.token });
    expect(customer.code).toBe(1);
    expect(customer.stderr).toContain('insufficient_scope');
  }, 300_000);

  it('reads credentials from flags, and from a config file only when it is private (0600)', async () => {
    const viaFlags = await svcNoConfig([
      'blocks',
      'list',
      '--api-url',
      api.url,
      '--token',
      adminToken,
      '--json',
    ]);
    expect(viaFlags.code, viaFlags.stderr).toBe(0);
    // The command line is readable by other local users (issue 35): svc says so, and names the alternatives.
    expect(viaFlags.stderr).toContain('warning: --token puts the API token on the command line');
    expect(viaFlags.stderr).toContain('SVC_TOKEN, --token-stdin or the config file');
    const viaEnvironment = await svc(['blocks', 'list', '--json']);
    expect(viaEnvironment.code, viaEnvironment.stderr).toBe(0);
    expect(viaEnvironment.stderr).not.toContain('warning');
    const piped = spawnSvc(['blocks', 'list', '--api-url', api.url, '--token-stdin', '--json'], {
      XDG_CONFIG_HOME: scratch,
      SVC_API_URL: '',
      SVC_TOKEN: '',
    });
    piped.stdin.end(`${adminToken}\n`);
    const viaStdin = await completionOf(piped);
    expect(viaStdin.code, viaStdin.stderr).toBe(0);
    expect(viaStdin.stderr).toBe('');
    expect(JSON.parse(viaStdin.stdout)).toEqual(JSON.parse(viaFlags.stdout));
    const emptyStdin = spawnSvc(['blocks', 'list', '--api-url', api.url, '--token-stdin'], {
      XDG_CONFIG_HOME: scratch,
      SVC_TOKEN: '',
    });
    emptyStdin.stdin.end('');
    const empty = await completionOf(emptyStdin);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('standard input holds no token');
    const both = await svcNoConfig(['blocks', 'list', '--api-url', api.url, '--token', 'x', '--token-stdin']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('either --token or --token-stdin');
    const config = join(scratch, 'config.json');
    writeFileSync(config, JSON.stringify({ api_url: api.url, token: adminToken }));
    chmodSync(config, 0o644);
    const open = await svcNoConfig(['source-blocks', 'list', '--config', config]);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('chmod 600');
    chmodSync(config, 0o600);
    const ok = await svcNoConfig(['source-blocks', 'list', '--config', config, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
  }, 300_000);

  it('creates, lists and removes source blocks with a masked prefix', async () => {
    const created = await svc([
      'source-blocks',
      'add',
      '203.0.113.77/24',
      '--reason',
      'abuse',
      '--expires',
      '7d',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const change = JSON.parse(created.stdout) as {
      block: { id: string; cidr: string };
      file_version: number;
    };
    expect(change.block.cidr).toBe('203.0.113.0/24');
    expect((await svc(['source-blocks', 'add', '10.0.0.0/8', '--reason', 'x'])).code).toBe(2);
    expect((await svc(['source-blocks', 'list'])).stdout).toContain('203.0.113.0/24');
    const removed = await svc(['source-blocks', 'remove', change.block.id, '--yes']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`operator sources file version ${change.file_version + 1}`);
  }, 300_000);

  it('suspends, shows and reinstates a profile', async () => {
    const profile = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
    const id = (profile.json as { id: string }).id;
    const suspended = await svc(['profiles', 'suspend', id, '--reason', 'malware C2', '--yes']);
    expect(suspended.code, suspended.stderr).toBe(0);
    expect(suspended.stdout).toContain('reason: malware C2');
    const shown = await svc(['profiles', 'show', id, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ suspended: true, reason: 'malware C2' });
    const reinstated = await svc(['profiles', 'reinstate', id]);
    expect(reinstated.stdout).toContain('not suspended');
    // --yes is accepted by every profile command alike, though reinstating never asks.
    await svc(['profiles', 'suspend', id, '--reason', 'again', '--yes']);
    const scripted = await svc(['profiles', 'reinstate', id, '--yes']);
    expect(scripted.code, scripted.stderr).toBe(0);
    expect(scripted.stdout).toContain('not suspended');
    expect((await svc(['profiles', 'show', 'zzzzzz'])).code).toBe(1);
  }, 300_000);

  it('triages list reports, deletes and undeletes an account, and lists audit, feedback and client errors', async () => {
    const profile = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
    const profileId = (profile.json as { id: string }).id;
    const reported = await send(`${api.url}/v1/profiles/${profileId}/list-reports`, {
      method: 'POST',
      headers: owner.auth,
      body: {
        domain: 'cli.example.com',
        list_id: BLOCKLIST_CATALOGUE.lists[0]?.id ?? 1,
        kind: 'false_positive',
      },
    });
    const reportId = (reported.json as { id: string }).id;
    const queue = await svc(['reports', 'list']);
    expect(queue.stdout).toContain('cli.example.com');
    const accepted = await svc(['list-reports', 'accept', reportId, '--note', 'will review']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('accepted');

    const me = await send(`${api.url}/v1/auth/me`, { headers: owner.auth });
    const accountId = (me.json as { account: { id: string } }).account.id;
    const deleted = await svc([
      'accounts',
      'delete',
      accountId,
      '--reason',
      'asked by email',
      '--ticket',
      'T-9',
      '--yes',
      '--json',
    ]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({ id: accountId });
    const undeleted = await svc(['accounts', 'undelete', accountId, '--ticket', 'T-9']);
    expect(undeleted.code, undeleted.stderr).toBe(0);
    expect((await svc(['accounts', 'undelete', accountId])).stderr).toContain('no_deletion_pending');

    const audit = await svc(['audit', 'list', '--action', 'admin.deletion_requested', '--json']);
    expect(audit.code, audit.stderr).toBe(0);
    expect((JSON.parse(audit.stdout) as { target: string }[]).map((entry) => entry.target)).toContain(
      `accounts/${accountId}`,
    );
    expect((await svc(['feedback', 'list'])).code).toBe(0);
    expect((await svc(['client-errors', 'list', '--json'])).code).toBe(0);
  }, 300_000);

  it('documents every operator command in svc --help', async () => {
    const help = await runSvc(['--help']);
    expect(help.code).toBe(0);
    for (const command of [
      'blocks',
      'source-blocks',
      'profiles',
      'list-reports|reports',
      'audit',
      'feedback',
      'client-errors',
    ]) {
      expect(help.stdout).toContain(command);
    }
    const accounts = await runSvc(['accounts', '--help']);
    expect(accounts.stdout).toMatch(/delete \[options\] <id>/);
    expect(accounts.stdout).toMatch(/undelete \[options\] <id>/);
  }, 60_000);

  it('marks the options a command requires in its --help, and names things with the right article', async () => {
    const suspend = await runSvc(['profiles', 'suspend', '--help']);
    expect(suspend.stdout).toMatch(/--reason <text>\s+\(required\) why/);
    expect(suspend.stdout).toMatch(/--yes\s+do not ask/);
    const create = await runSvc(['blocks', 'create', '--help']);
    expect(create.stdout).toMatch(/--reason-code <code>\s+\(required\) one of legal_order, abuse, csam/);
    expect(create.stdout).not.toMatch(/--note <text>\s+\(required\)/);
    expect((await runSvc(['blocks', 'remove', '--help'])).stdout).toContain('remove an operator block');
    expect((await runSvc(['source-blocks', 'remove', '--help'])).stdout).toContain('remove a source block');
    const reinstate = await runSvc(['profiles', 'reinstate', '--help']);
    expect(reinstate.stdout).toMatch(/--yes/);
    const root = await runSvc(['--help']);
    expect(root.stdout).toContain('which every other command accepts and ignores');
    expect(root.stdout).toContain('profiles:write does not include profiles:read');
  }, 60_000);
});
