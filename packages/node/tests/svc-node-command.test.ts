import { Resolver } from 'node:dns/promises';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '@svc/http-server';
import { type ApiOwner, createOwner } from '@svc/testing/node-api-owner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandIo, EXIT, runSvcNode } from '../src/index.js';
import { startTestUpstream, type TestUpstream, UPSTREAM_V4 } from './support/test-upstream.js';

/** The command's io, its output kept, its stop and reload requests in the test's hands. */
function commandIo(environment: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  let stop: () => void = () => undefined;
  let reload: () => void = () => undefined;
  const io: CommandIo = {
    environment,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    stopRequested: new Promise<void>((resolve) => (stop = resolve)),
    onReloadRequest: (callback) => (reload = callback),
  };
  return { io, out, err, stop: () => stop(), reload: () => reload() };
}

async function eventually<T>(read: () => T, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('svc-node help and usage', () => {
  it('prints its commands and exit codes on help, and exits 2 without a command', async () => {
    const help = commandIo({});
    expect(await runSvcNode(['help'], help.io)).toBe(EXIT.ok);
    expect(help.out.join('\n')).toMatch(/enrol CODE[\s\S]*run[\s\S]*exit codes: 0 done, 1 failed/);
    expect(await runSvcNode([], commandIo({}).io)).toBe(EXIT.usage);
  });

  it('exits 2 naming the field of a configuration that is not valid', async () => {
    const bad = commandIo({ SVC_NODE_API_URL: 'not a url' });
    expect(await runSvcNode(['run'], bad.io)).toBe(EXIT.usage);
    expect(bad.err.join('\n')).toMatch(/api_url: [\s\S]*data_dir: [\s\S]*upstreams: /);
  });
});

// The whole product path against the API in memory: enrol with a one-time code, run, answer DNS as the profile
// says, read the configuration again on SIGHUP, stop on SIGTERM.
describe('svc-node enrol and run (issue 41)', () => {
  let api: TestApp;
  let owner: ApiOwner;
  let upstream: TestUpstream;
  let environment: Record<string, string>;
  let enrolmentCode: string;

  const request = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { ...owner.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    api = await createTestApp();
    owner = await createOwner(api.url, (address) =>
      api.mailer.to(address).map((message) => message.text ?? ''),
    );
    upstream = await startTestUpstream();
    const profile = await request('POST', '/v1/profiles', {
      name: 'home',
      settings: { log_destination: 'self-hosted', block_mode: 'nxdomain' },
    });
    const profileId = String(profile.json.id);
    await request('PUT', `/v1/profiles/${profileId}/rules`, {
      deny: ['ads.example'],
      allow: [],
      rewrites: [],
    });
    const node = await request('POST', `/v1/profiles/${profileId}/nodes`, { name: 'home node' });
    enrolmentCode = String(node.json.enrolment_code);
    environment = {
      SVC_NODE_API_URL: api.url,
      SVC_NODE_DATA_DIR: join(await mkdtemp(join(tmpdir(), 'svc-node-data-')), 'node'),
      SVC_NODE_UPSTREAMS: `${upstream.host}:${upstream.port}`,
      SVC_NODE_LISTEN_DNS: '127.0.0.1:0',
    };
  }, 60_000);
  afterAll(async () => {
    await upstream?.close();
    await api?.close();
  });

  it('refuses to run before it is enrolled, enrols once, then runs and reloads', async () => {
    const early = commandIo(environment);
    expect(await runSvcNode(['run'], early.io)).toBe(EXIT.failed);
    expect(early.err.join('\n')).toMatch(/run `svc-node enrol CODE` first/);

    const enrol = commandIo(environment);
    expect(await runSvcNode(['enrol', enrolmentCode], enrol.io)).toBe(EXIT.ok);
    expect(enrol.out.join('\n')).toMatch(/^enrolled as node \S+ of profile \S+$/);
    expect(existsSync(join(environment.SVC_NODE_DATA_DIR ?? '', 'credentials.json'))).toBe(true);
    const again = commandIo(environment);
    expect(await runSvcNode(['enrol', enrolmentCode], again.io)).toBe(EXIT.failed);
    expect(again.err.join('\n')).toMatch(/already enrolled/);

    const run = commandIo(environment);
    const exited = runSvcNode(['run'], run.io);
    const started = await eventually(
      () => run.out.find((line) => line.includes('answering DNS on')),
      (line) => line !== undefined,
    );
    const port = /udp\+tcp:\/\/127\.0\.0\.1:(\d+)/.exec(started ?? '')?.[1];
    expect(port, run.err.join('\n')).toBeDefined();
    const resolver = new Resolver({ timeout: 3_000, tries: 1 });
    resolver.setServers([`127.0.0.1:${port}`]);
    await expect(resolver.resolve4('allowed.example')).resolves.toEqual([UPSTREAM_V4]);
    await expect(resolver.resolve4('ads.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });

    // SIGHUP: the allow-list read again no longer admits loopback.
    environment.SVC_NODE_ALLOW = '10.0.0.0/8';
    run.reload();
    await eventually(
      () => run.out.some((line) => line.includes('configuration reloaded')),
      (reloaded) => reloaded,
    );
    await expect(resolver.resolve4('allowed-after-reload.example')).rejects.toMatchObject({
      code: 'EREFUSED',
    });

    run.stop();
    expect(await exited).toBe(EXIT.ok);
  }, 60_000);
});
