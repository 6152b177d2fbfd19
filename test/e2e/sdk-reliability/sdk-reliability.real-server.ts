import { createClient, isAuth, isConflict, isNotFound, isValidation } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../support/accounts.js';
import { type ApiHarness, startApi } from '../../support/api-harness.js';
import { TRANSPORTS } from './fault-server.js';

/** The SDK's error families and derived clients on the real API (memory storage). */
export function sdkOnTheRealServer(): void {
  describe.each(TRANSPORTS)('SDK error narrowing on real API answers (%s transport)', (transport) => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApi('memory');
    });
    afterAll(async () => api.close());

    it('sorts the problems of the real server into code families', async () => {
      const owner = await createAccount(api);
      const client = createClient({ baseUrl: api.url, token: owner.token, transport });

      const missing = await client.profiles.get('zz99zz').catch((error: unknown) => error);
      expect(isNotFound(missing)).toBe(true);
      expect(isAuth(missing) || isValidation(missing) || isConflict(missing)).toBe(false);
      if (isNotFound(missing)) expect(missing.requestId).toBeTruthy();

      const anonymous = await createClient({ baseUrl: api.url, transport })
        .auth.me()
        .catch((error: unknown) => error);
      expect(isAuth(anonymous)).toBe(true);

      const invalid = await client.profiles
        .create({ name: 42 } as unknown as { name: string })
        .catch((error: unknown) => error);
      expect(isValidation(invalid)).toBe(true);
      if (isValidation(invalid)) expect(invalid.fieldErrors.length).toBeGreaterThan(0);

      const profile = await client.profiles.create({ name: 'Home' });
      await client.profiles.update(profile.id, { name: 'Renamed' }, { ifMatch: profile.version });
      const stale = await client.profiles
        .update(profile.id, { name: 'Again' }, { ifMatch: profile.version })
        .catch((error: unknown) => error);
      expect(isConflict(stale)).toBe(true);
      if (isConflict(stale)) expect(stale.code).toBe('version_mismatch');
    });
  });

  describe.each(TRANSPORTS)('SDK withOptions on the real server (%s transport)', (transport) => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApi('memory');
    });
    afterAll(async () => api.close());

    it('shares the session cookie between a client and the clients derived from it', async () => {
      const owner = await createAccount(api);
      const parent = createClient({ baseUrl: api.url, sessionCookie: owner.cookie, transport });
      const derived = parent.withOptions({ maxRetries: 0, timeoutMs: 10_000 });
      expect((await derived.auth.me()).email).toBe(owner.email);
      await derived.auth.logout();
      expect(parent.sessionCookie()).toBeUndefined();
      expect(isAuth(await parent.auth.me().catch((error: unknown) => error))).toBe(true);
    });
  });
}
