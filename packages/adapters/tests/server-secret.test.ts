import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOrCreateDevelopmentSecret } from '../src/index.js';

describe('development secret (RUNNER.md SVC_SECRET)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-secret-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('gives every concurrent caller the same secret, the one kept on disk', async () => {
    const secrets = await Promise.all(
      Array.from({ length: 5 }, () => loadOrCreateDevelopmentSecret(dataDir)),
    );
    expect(new Set(secrets).size).toBe(1);
    expect(readFileSync(join(dataDir, 'secret'), 'utf8').trim()).toBe(secrets[0]);
    expect(secrets[0]?.length).toBeGreaterThanOrEqual(32);
  });
});
