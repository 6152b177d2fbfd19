import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ListRefreshReport } from '@svc/domain';
import { ListSourceServer } from '@svc/testing/list-source';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, listeningUrl, runSvc, spawnSvc, svcBuilt } from '../../support/cli-process.js';
import { send } from '../../support/http.js';

// Every `svc` here is the compiled CLI, rebuilt first when a source is newer than its build.
beforeAll(svcBuilt, 240_000);

describe('svc lists refresh and svc lists import on a running server’s data dir (issue 29)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-lists-'));
  const listFile = join(dataDir, 'oisd-small.txt');
  let sources: ListSourceServer;
  let env: Record<string, string>;
  let server: ChildProcessWithoutNullStreams;
  let url: string;

  beforeAll(async () => {
    sources = await ListSourceServer.start();
    sources.route('/stevenblack-unified', {
      body: '0.0.0.0 ads.cli-fixture.example\n0.0.0.0 bad..name\n',
      etag: '"1"',
    });
    env = { SVC_ENV: 'development', SVC_LIST_MIRROR_URL: sources.url };
    writeFileSync(
      listFile,
      '[Adblock Plus 2.0]\n||imported.cli-fixture.example^\n@@||ok.imported.cli-fixture.example^\n',
    );
    server = spawnSvc(['serve', '--port', '0', '--data-dir', dataDir], env);
    url = await listeningUrl(server);
  }, 120_000);

  afterAll(async () => {
    if (server.exitCode === null) server.kill('SIGKILL');
    await sources?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refreshes the named lists through the running server', async () => {
    const result = await runSvc(['lists', 'refresh', '--list', '1', '--data-dir', dataDir, '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('svc lists refresh: handed to the running server');
    const report = JSON.parse(result.stdout) as ListRefreshReport;
    expect(report.sources).toEqual([
      expect.objectContaining({ id: 'stevenblack-unified', status: 'ok', entries: 1, invalid: 1 }),
    ]);
    expect(report.lists).toEqual([expect.objectContaining({ list_id: 1, version: 1, created: true })]);
  }, 60_000);

  it('imports a file as a list’s content, in the list’s format', async () => {
    const result = await runSvc(
      ['lists', 'import', '--list', '2', listFile, '--data-dir', dataDir, '--json'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ list_id: 2, version: 1, entries: 1, created: true });
    const catalogue = (await send(`${url}/v1/lists`)).json as { lists: { id: number; version: number }[] };
    expect(catalogue.lists.find((list) => list.id === 2)?.version).toBe(1);
  }, 60_000);

  it('refuses an HTML page, a binary file and a halved list, keeping the version in force (issue 35)', async () => {
    const page = join(dataDir, 'page.html');
    writeFileSync(page, '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head></html>\n');
    const binary = join(dataDir, 'list.gz');
    writeFileSync(binary, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4b]));
    const versionOf = async (id: number) =>
      (
        (await send(`${url}/v1/lists`)).json as { lists: { id: number; version: number; entries: number }[] }
      ).lists.find((list) => list.id === id);
    const before = await versionOf(2);
    expect(before).toMatchObject({ version: 1, entries: 1 });
    for (const [file, reason] of [
      [page, 'the file is an HTML page, not a list'],
      [binary, 'the file is binary'],
    ] as const) {
      const refused = await runSvc(['lists', 'import', '--list', '2', file, '--data-dir', dataDir], env);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain('list_refused');
      expect(refused.stderr).toContain(reason);
      expect(refused.stdout).toBe('');
      expect(await versionOf(2)).toEqual(before);
    }
    const full = join(dataDir, 'four.txt');
    writeFileSync(full, 'a.shrink.example\nb.shrink.example\nc.shrink.example\nd.shrink.example\n');
    const one = join(dataDir, 'one.txt');
    writeFileSync(one, 'a.shrink.example\n');
    const imported = await runSvc(
      ['lists', 'import', '--list', '4', '--format', 'domains', full, '--data-dir', dataDir],
      env,
    );
    expect(imported.code, imported.stderr).toBe(0);
    const shrunk = await runSvc(
      ['lists', 'import', '--list', '4', '--format', 'domains', one, '--data-dir', dataDir],
      env,
    );
    expect(shrunk.code).toBe(1);
    expect(shrunk.stderr).toMatch(/list_refused: .*less than half.*Version 1 \(4 entries\) stays in force/);
    expect(await versionOf(4)).toMatchObject({ version: 1, entries: 4 });
    const allowed = await runSvc(
      ['lists', 'import', '--list', '4', '--format', 'domains', one, '--allow-shrink', '--data-dir', dataDir],
      env,
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(await versionOf(4)).toMatchObject({ version: 2, entries: 1 });
    const help = await runSvc(['lists', 'import', '--help'], env);
    expect(help.stdout).toContain('--allow-shrink');
    expect((await runSvc(['lists', 'refresh', '--help'], env)).stdout).toContain('--allow-shrink');
  }, 120_000);

  it('says what is wrong with a bad invocation', async () => {
    const unknown = await runSvc(
      ['lists', 'import', '--list', '65000', listFile, '--data-dir', dataDir],
      env,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no list 65000/);
    const missing = await runSvc(
      ['lists', 'import', '--list', '2', join(dataDir, 'nope.txt'), '--data-dir', dataDir],
      env,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nope\.txt/);
    const format = await runSvc(['lists', 'import', '--list', '2', '--format', 'csv', listFile], env);
    expect(format.code).toBe(2);
  }, 60_000);

  it('works on the data dir with no server running', async () => {
    server.kill('SIGTERM');
    expect(await exitOf(server)).toBe(0);
    const result = await runSvc(
      ['lists', 'import', '--list', '3', '--format', 'adblock', listFile, '--data-dir', dataDir, '--json'],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('handed to the running server');
    expect(JSON.parse(result.stdout)).toMatchObject({ list_id: 3, version: 1 });
  }, 120_000);
});
