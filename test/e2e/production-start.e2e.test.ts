import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningUrl, runSvc, spawnSvc, svcBuilt } from '../support/cli-process.js';
import { send } from '../support/http.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

const PRODUCTION = {
  SVC_ENV: 'production',
  PORT: '0',
  SVC_SECRET: 'production-start-secret-0123456789abcdef',
  SVC_METRICS_TOKEN: 'production-start-metrics-token',
};

/** The TCP ports a process listens on (Linux: its socket descriptors matched in its network namespace's tables). */
function listeningTcpPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const target = (() => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        // Closed between the listing and the read.
        return '';
      }
    })();
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined) inodes.add(inode);
  }
  const ports: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      // sl, local_address, rem_address, st, tx_queue:rx_queue, tr:tm->when, retrnsmt, uid, timeout, inode
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      // State 0A is LISTEN.
      if (state === '0A' && inode !== undefined && inodes.has(inode) && local !== undefined)
        ports.push(Number.parseInt(local.split(':')[1] ?? '', 16));
    }
  }
  return ports.sort((a, b) => a - b);
}

/**
 * `svc serve` in production (issue 27, findings 7 and 10): the embedded engines only when SVC_ALLOW_EMBEDDED
 * says so, `/metrics` only with SVC_METRICS_TOKEN, and the embedded PostgreSQL never on a TCP port.
 */
describe('svc serve in production', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-production-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses the embedded engines without SVC_ALLOW_EMBEDDED, naming the setting, and opens nothing', async () => {
    const refused = await runSvc(['serve', '--data-dir', join(dataDir, 'refused')], PRODUCTION);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('SVC_ALLOW_EMBEDDED');
    expect(refused.stderr).toContain('production refuses the embedded PostgreSQL (PGlite, no DATABASE_URL)');
    expect(refused.stderr).toContain('SVC_ALLOW_EMBEDDED=true');
    expect(refused.stdout).not.toContain('listening on');
    expect(() => readdirSync(join(dataDir, 'refused'))).toThrow();
  }, 60_000);

  it('refuses to start with metrics on and no SVC_METRICS_TOKEN', async () => {
    const { SVC_METRICS_TOKEN: _token, ...withoutToken } = PRODUCTION;
    const refused = await runSvc(['serve', '--data-dir', join(dataDir, 'no-token')], {
      ...withoutToken,
      SVC_ALLOW_EMBEDDED: 'true',
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'SVC_METRICS_TOKEN: is required in production while metrics are enabled',
    );
    expect(refused.stdout).not.toContain('listening on');
  }, 60_000);

  it('refuses SVC_TRUST_PROXY=true or a hop count, naming the setting (issue 35)', async () => {
    for (const trustProxy of ['true', '1']) {
      const refused = await runSvc(['serve', '--data-dir', join(dataDir, 'trust-all')], {
        ...PRODUCTION,
        SVC_ALLOW_EMBEDDED: 'true',
        SVC_TRUST_PROXY: trustProxy,
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('SVC_TRUST_PROXY');
      expect(refused.stderr).toContain('addresses or CIDRs');
      expect(refused.stdout).not.toContain('listening on');
    }
  }, 60_000);

  it('refuses an allow setting that is not true or false', async () => {
    const refused = await runSvc(['serve', '--data-dir', join(dataDir, 'bad-flag')], {
      ...PRODUCTION,
      SVC_ALLOW_EMBEDDED: 'yes',
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('SVC_ALLOW_EMBEDDED');
  }, 60_000);

  describe('with SVC_ALLOW_EMBEDDED=true', () => {
    const allowedDir = join(dataDir, 'allowed');
    const env = { ...PRODUCTION, SVC_ALLOW_EMBEDDED: 'true' };
    let server: ChildProcessWithoutNullStreams;
    let url: string;

    beforeAll(async () => {
      server = spawnSvc(['serve', '--data-dir', allowedDir], env);
      url = await listeningUrl(server);
    }, 120_000);
    afterAll(() => {
      if (server.exitCode === null) server.kill('SIGKILL');
    });

    it('starts, and answers as a production server', async () => {
      const meta = await send(`${url}/v1/meta`);
      expect(meta.status).toBe(200);
      expect((meta.json as { environment: string }).environment).toBe('production');
    });

    it.runIf(process.platform === 'linux')(
      'listens on no TCP port but the API’s: PGlite is on an owner-only socket in the data dir',
      async () => {
        // The engines are open once a storage-backed request answered.
        expect((await send(`${url}/readyz`)).status).toBe(200);
        const apiPort = Number(new URL(url).port);
        expect(listeningTcpPorts(server.pid ?? 0)).toEqual([apiPort]);
        const socket = join(allowedDir, 'pg-socket', '.s.PGSQL.5432');
        expect(statSync(socket).isSocket()).toBe(true);
        expect(statSync(socket).mode & 0o777).toBe(0o600);
        expect(statSync(join(allowedDir, 'pg-socket')).mode & 0o777).toBe(0o700);
      },
    );

    it('still takes storage commands over its control socket', async () => {
      const result = await runSvc(['migrate', '--data-dir', allowedDir, '--json'], env);
      expect(result.stderr).toContain('handed to the running server');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ postgres: [], columnar: [] });
    }, 60_000);

    it('answers /metrics only with the metrics token', async () => {
      const anonymous = await send(`${url}/metrics`);
      expect(anonymous.status).toBe(401);
      expect((anonymous.json as { code: string }).code).toBe('unauthenticated');
      const scraped = await send(`${url}/metrics`, {
        headers: { authorization: `Bearer ${PRODUCTION.SVC_METRICS_TOKEN}` },
      });
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('svc_http_requests_total');
    });
  });
});
