import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient, queryRecords, type SvcClient } from '@svc/sdk';
import { type EmbeddedSvc, startEmbeddedSvc } from '@svc/testing/embedded-svc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRow, tailLogs } from '../src/tail-logs.js';

const SCRIPT = fileURLToPath(new URL('../src/tail-logs.ts', import.meta.url));

/** Tails until the first batch of lines arrived, then stops; gives the lines and the cursor to resume. */
async function firstBatch(
  client: SvcClient,
  profileId: string,
  options: { status?: 'allowed' } = {},
): Promise<{ lines: string[]; cursor: string | undefined }> {
  const lines: string[] = [];
  const stop = new AbortController();
  const cursor = await tailLogs(client, profileId, {
    ...options,
    signal: stop.signal,
    write: (line) => {
      lines.push(line);
      // The first event is written in one go: stop once the microtasks writing it are done.
      queueMicrotask(() => stop.abort());
    },
  });
  return { lines, cursor };
}

describe('tail-logs against an embedded svc', () => {
  let svc: EmbeddedSvc;
  let client: SvcClient;
  let profileId: string;
  beforeAll(async () => {
    svc = await startEmbeddedSvc('tail-logs');
    client = createClient({ baseUrl: svc.url, token: svc.token });
    profileId = (await client.profiles.create({ name: 'Tailed' })).id;
    await svc.simulate(profileId, 60);
  });
  afterAll(async () => svc?.close());

  it('prints the latest rows oldest first, one line per query, and answers the cursor to resume from', async () => {
    const { lines, cursor } = await firstBatch(client, profileId);
    const latest = queryRecords(await client.profiles.logs.query(profileId, { limit: 100 }));
    expect(lines).toEqual(latest.reverse().map(formatRow));
    expect(lines).toHaveLength(60);
    expect(cursor).toEqual(expect.any(String));
  });

  it('prints only the queries of the status asked for', async () => {
    const { lines } = await firstBatch(client, profileId, { status: 'allowed' });
    const allowed = queryRecords(
      await client.profiles.logs.query(profileId, { limit: 100, status: 'allowed' }),
    );
    expect(lines).toEqual(allowed.reverse().map(formatRow));
    expect(lines.every((line) => / allowed {3}/.test(line))).toBe(true);
  });

  it('runs as a script until interrupted, then prints the cursor to resume with', async () => {
    // `source`: the monorepo's packages straight from their TypeScript, without building them first.
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SCRIPT, profileId], {
      env: { ...process.env, SVC_BASE_URL: svc.url, SVC_TOKEN: svc.token },
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.split('\n').length > 60) resolve();
      }),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(60);
    expect(stderr).toMatch(/^resume with SVC_CURSOR=\S+\n$/);
  });

  it('refuses a status it does not know, with its usage and exit code 2', async () => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', SCRIPT, profileId, 'nope'],
      {
        env: { ...process.env, SVC_BASE_URL: svc.url, SVC_TOKEN: svc.token },
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(2);
    expect(stderr).toMatch(/^usage: .*\[allowed\|blocked\|rewritten\|error\]\n$/);
  });
});
