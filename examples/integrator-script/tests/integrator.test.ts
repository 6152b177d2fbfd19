import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from '@svc/sdk';
import { type EmbeddedSvc, startEmbeddedSvc } from '@svc/testing/embedded-svc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrate, readAnalytics } from '../src/integrator.js';

const SCRIPT = fileURLToPath(new URL('../src/integrator.ts', import.meta.url));

/** Runs the script as an integrator would, in its own process, and gives its exit code and output. */
function runScript(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // `source`: the monorepo's packages straight from their TypeScript, without building them first.
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SCRIPT], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('integrator script against an embedded svc', () => {
  let svc: EmbeddedSvc;
  beforeAll(async () => {
    svc = await startEmbeddedSvc('integrator');
  });
  afterAll(async () => svc?.close());

  it('creates a profile, sets its rules, links an IP, and reads the analytics of its traffic', async () => {
    const client = createClient({ baseUrl: svc.url, token: svc.token });
    const result = await integrate(client, {
      profileName: 'Office',
      deny: ['ads.example.com'],
      ip: '198.51.100.20',
    });
    expect(result.deny).toEqual(['ads.example.com']);
    expect(result.linkedIp).toBe('198.51.100.20');
    // The test runs on loopback, not on 198.51.100.20: the link waits for its proof.
    expect(result.linkedIpState).toBe('pending');
    expect(result.proofUrl).toMatch(/\/v1\/ddns\/[A-Za-z0-9_-]{43}$/);
    expect(result.analytics).toEqual({
      topDomains: [],
      byStatus: { allowed: 0, blocked: 0, error: 0, rewritten: 0 },
    });
    expect((await client.profiles.rules.get(result.profileId)).deny).toEqual(['ads.example.com']);
    expect((await client.profiles.get(result.profileId)).name).toBe('Office');

    await svc.simulate(result.profileId, 300);
    const analytics = await readAnalytics(client, result.profileId);
    expect(analytics.topDomains.length).toBeGreaterThan(0);
    expect(analytics.topDomains.every((row) => row.qname.length > 0 && row.count > 0)).toBe(true);
    expect(Object.values(analytics.byStatus).reduce((sum, count) => sum + count, 0)).toBe(300);
  });

  it('runs as a script with SVC_BASE_URL and SVC_TOKEN and prints the result as JSON', async () => {
    const run = await runScript({
      SVC_BASE_URL: svc.url,
      SVC_TOKEN: svc.token,
      SVC_LINK_IP: '198.51.100.21',
      SVC_PROFILE_NAME: 'Scripted',
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout) as { profileId: string; linkedIp: string; deny: string[] };
    expect(printed.linkedIp).toBe('198.51.100.21');
    expect(printed.deny).toEqual(['ads.example.com', 'tracker.example.net']);
    const client = createClient({ baseUrl: svc.url, token: svc.token });
    expect((await client.profiles.get(printed.profileId)).name).toBe('Scripted');
  });

  it('exits 1 with the problem code and request id when the API refuses', async () => {
    const run = await runScript({ SVC_BASE_URL: svc.url, SVC_TOKEN: 'svc_not-a-real-token' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^401 \S+ \(request [0-9a-f-]{36}\)\n$/);
  });
});
