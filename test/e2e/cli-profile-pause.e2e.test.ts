import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../support/accounts.js';
import { type ApiHarness, startApi } from '../support/api-harness.js';
import { runSvc, svcBuilt } from '../support/cli-process.js';
import { send } from '../support/http.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

/** `svc profiles pause|resume|allow|allowances` (issue 38) as a subprocess with the owner's API token. */
describe('svc profiles pause, resume and allow against a running server', () => {
  let api: ApiHarness;
  let owner: TestAccount;
  let profileId: string;
  const scratch = mkdtempSync(join(tmpdir(), 'svc-cli-pause-'));

  beforeAll(async () => {
    api = await startApi('memory');
    owner = await createAccount(api);
    const created = await send(`${api.url}/v1/profiles`, { method: 'POST', headers: owner.auth, body: {} });
    profileId = (created.json as { id: string }).id;
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const svc = (args: string[], token = owner.token) =>
    runSvc(args, { SVC_API_URL: api.url, SVC_TOKEN: token, XDG_CONFIG_HOME: scratch });
  const pausedUntil = async () =>
    (
      (await send(`${api.url}/v1/profiles/${profileId}`, { headers: owner.auth })).json as {
        paused_until: string | null;
      }
    ).paused_until;

  it('pauses for the minutes given, as text and as JSON, then resumes', async () => {
    const now = api.clock.now().getTime();
    const paused = await svc(['profiles', 'pause', profileId, '--minutes', '60', '--json']);
    expect(paused.code, paused.stderr).toBe(0);
    const until = new Date(now + 3_600_000).toISOString();
    expect(JSON.parse(paused.stdout)).toEqual({ paused_until: until });
    expect(await pausedUntil()).toBe(until);

    const human = await svc(['profiles', 'pause', profileId, '--minutes', '15']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^profile ${profileId}: filtering paused until \\d{4}-`));

    const resumed = await svc(['profiles', 'resume', profileId]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout.trim()).toBe(`profile ${profileId}: filtering resumed`);
    expect(await pausedUntil()).toBeNull();
    expect((await svc(['profiles', 'resume', profileId])).code).toBe(0);
  });

  it('refuses minutes out of range as a usage error (exit 2) before any request', async () => {
    for (const minutes of ['0', '1441', '1.5', 'soon']) {
      const refused = await svc(['profiles', 'pause', profileId, '--minutes', minutes]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--minutes must be a whole number from 1 to 1440');
    }
    expect(await pausedUntil()).toBeNull();
  });

  it('prints the API problem and exits 1 for a read-only token or another organisation’s profile', async () => {
    const reader = await createAccount(api, ['profiles:read']);
    const forbidden = await svc(['profiles', 'pause', profileId, '--minutes', '5'], reader.token);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toContain('insufficient_scope (403)');
    const stranger = await createAccount(api);
    const hidden = await svc(['profiles', 'resume', profileId], stranger.token);
    expect(hidden.code).toBe(1);
    expect(hidden.stderr).toContain('not_found (404)');
  });
  it('allows a domain or a service for N minutes, lists them, and refuses bad minutes before any request', async () => {
    const now = api.clock.now().getTime();
    const allowed = await svc(['profiles', 'allow', profileId, 'Games.Example', '--minutes', '30', '--json']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({
      domain: 'games.example',
      service: null,
      expires_at: new Date(now + 30 * 60_000).toISOString(),
    });
    const service = await svc(['profiles', 'allow', profileId, '--service', 'youtube', '--minutes', '5']);
    expect(service.code, service.stderr).toBe(0);
    expect(service.stdout).toMatch(
      new RegExp(`^profile ${profileId}: service youtube allowed until \\d{4}-`),
    );
    const listed = await svc(['profiles', 'allowances', profileId, '--json']);
    expect((JSON.parse(listed.stdout) as { domain: string | null }[]).map((row) => row.domain)).toEqual([
      null,
      'games.example',
    ]);
    const refused = await svc(['profiles', 'allow', profileId, 'a.example', '--minutes', '1441']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--minutes must be a whole number from 1 to 1440');
    const unknown = await svc([
      'profiles',
      'allow',
      profileId,
      '--service',
      'no-such-service',
      '--minutes',
      '5',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('validation_failed (422)');
  });
});
