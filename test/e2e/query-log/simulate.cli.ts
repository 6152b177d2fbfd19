import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createColumnarStore } from '@svc/adapters';
import { ManualClock } from '@svc/testing/clock';
import type { Container } from 'inversify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../../support/accounts.js';
import { eventually } from '../../support/api-harness.js';
import { exitOf, listeningUrl, runSvc, spawnSvc } from '../../support/cli-process.js';
import { send } from '../../support/http.js';
import { type DeviceBody, rowsOf } from './simulate.fixture.js';

/** `svc simulate` through the compiled CLI, against a running server and on the engines itself. */
export function simulateThroughTheCli(): void {
  describe('svc simulate through the CLI, handed to a running server and on the engines itself', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-simulate-'));
    const env = { SVC_ENV: 'development' };
    let server: ChildProcessWithoutNullStreams;
    let url: string;
    let owner: TestAccount;
    let profileId: string;

    const mailTo = async (address: string): Promise<string[]> => {
      const folder = join(dataDir, 'mail');
      if (!existsSync(folder)) return [];
      return readdirSync(folder)
        .filter((name) => name.endsWith('.eml'))
        .sort()
        .map((name) =>
          readFileSync(join(folder, name), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/g, (_match, hex: string) =>
              String.fromCharCode(Number.parseInt(hex, 16)),
            ),
        )
        .filter((message) => message.includes(`To: ${address}`));
    };

    beforeAll(async () => {
      server = spawnSvc(['serve', '--port', '0', '--data-dir', dataDir], env);
      url = await listeningUrl(server);
      owner = await createAccount({
        url,
        mailTo,
        clock: new ManualClock(),
        container: undefined as unknown as Container,
        close: async () => undefined,
      });
      const created = await send(`${url}/v1/profiles`, {
        method: 'POST',
        headers: owner.auth,
        body: { settings: { retention_days: 9 } },
      });
      profileId = (created.json as { id: string }).id;
    }, 120_000);

    afterAll(() => {
      if (server.exitCode === null) server.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('hands the simulation to the running server and prints a summary', async () => {
      const result = await runSvc(
        [
          'simulate',
          '--profile',
          profileId,
          '--queries',
          '2500',
          '--seed',
          '11',
          '--data-dir',
          dataDir,
          '--json',
        ],
        env,
      );
      expect(result.stderr).toContain('svc simulate: handed to the running server');
      expect(result.code, result.stderr).toBe(0);
      const summary = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(summary).toMatchObject({
        profile_id: profileId,
        destination: 'cloud',
        seed: 11,
        queries: 2500,
        rows_written: 2500,
        retention_days: 9,
      });
      expect(summary.devices).toHaveLength(5);
      const totals = summary.totals as Record<string, number>;
      expect(Object.values(totals).reduce((sum, count) => sum + count, 0)).toBe(2500);
      expect(summary.rows_per_second).toBeGreaterThan(0);

      const devices = await eventually(
        async () => (await send(`${url}/v1/profiles/${profileId}/devices`, { headers: owner.auth })).json,
        (body) => (body as { devices: unknown[] }).devices.length === 5,
      );
      const listed = (devices as { devices: DeviceBody[] }).devices;
      for (const device of listed) expect(typeof device.queries_24h).toBe('number');
    }, 120_000);

    it('prints a random seed when none is given, and refuses an unknown profile and bad numbers', async () => {
      const human = await runSvc(
        ['simulate', '--profile', profileId, '--queries', '300', '--data-dir', dataDir],
        env,
      );
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toMatch(/seed \d+/);
      expect(human.stdout).toContain('query-log rows written: 300');
      const unknown = await runSvc(['simulate', '--profile', 'zz9zz9', '--data-dir', dataDir], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('no profile zz9zz9');
      const usage = await runSvc(
        ['simulate', '--profile', profileId, '--queries', 'many', '--data-dir', dataDir],
        env,
      );
      expect(usage.code).toBe(2);
    }, 120_000);

    it('runs on the engines itself once the server has stopped', async () => {
      server.kill('SIGTERM');
      expect(await exitOf(server)).toBe(0);
      const result = await runSvc(
        [
          'simulate',
          '--profile',
          profileId,
          '--queries',
          '1000',
          '--days',
          '2',
          '--devices',
          '2',
          '--data-dir',
          dataDir,
        ],
        env,
      );
      expect(result.stderr).not.toContain('handed to the running server');
      expect(result.code, result.stderr).toBe(0);
      const store = await createColumnarStore({ dataDir });
      try {
        const [counted] = await rowsOf<{ rows: string; totals: string }>(
          store.client,
          `SELECT toString((SELECT count() FROM query_log WHERE profile_id = {id:String})) AS rows,
                toString((SELECT sum(count) FROM query_totals_hourly WHERE profile_id = {id:String})) AS totals`,
          { id: profileId },
        );
        expect(counted).toEqual({ rows: '3800', totals: '3800' });
      } finally {
        await store.close();
      }
    }, 120_000);
  });
}
