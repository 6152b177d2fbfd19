import { createTestApp, type TestApp } from '@svc/http-server';
import { createClient } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('embedding svc in a test suite', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp();
  });
  afterAll(async () => svc.close());

  it('serves the API on loopback without any engine', async () => {
    const client = createClient({ baseUrl: svc.url });
    const meta = await client.meta.get();
    expect(meta.api_version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(new URL(svc.url).hostname).toBe('127.0.0.1');
  });
});
