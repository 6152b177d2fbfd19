import type { IdempotencyStore } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const T0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const DAY = 86_400_000;
const response = { status: 201, headers: { Location: '/v1/x/1' }, body: '{"id":1}' };

/** The behaviour every IdempotencyStore must have; run against each implementation. */
export function runIdempotencyStoreContract(
  name: string,
  make: () => Promise<{ store: IdempotencyStore; dispose(): Promise<void> }>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`IdempotencyStore contract: ${name}`, () => {
    let store: IdempotencyStore;
    let dispose: () => Promise<void>;
    let n = 0;
    const fresh = () => `key-${++n}-${Math.random().toString(36).slice(2)}`;
    const claim = (key: string, fingerprint = 'fp', now = T0, scope = 'acct') =>
      store.claim(
        { scope, key, fingerprint, createdAt: now, expiresAt: at(DAY) },
        new Date(now.getTime() - 60_000),
      );

    beforeAll(async () => {
      ({ store, dispose } = await make());
    }, 60_000);
    afterAll(async () => dispose());

    it('claims a new key once; the second claim sees the running record', async () => {
      const key = fresh();
      expect(await claim(key)).toEqual({ claimed: true });
      const second = await claim(key, 'other');
      expect(second.claimed).toBe(false);
      if (!second.claimed)
        expect(second.existing).toMatchObject({ key, fingerprint: 'fp', state: 'running', response: null });
    });

    it('keeps a completed response until it expires, then lets the key be claimed again', async () => {
      const key = fresh();
      await claim(key);
      await store.complete('acct', key, response, at(DAY));
      const replay = await claim(key, 'fp', at(DAY - 1));
      expect(replay.claimed).toBe(false);
      if (!replay.claimed) expect(replay.existing).toMatchObject({ state: 'completed', response });
      expect(await claim(key, 'fp', at(DAY))).toEqual({ claimed: true });
    });

    it('frees a released running key and never releases a completed one', async () => {
      const key = fresh();
      await claim(key);
      await store.release('acct', key);
      expect(await claim(key)).toEqual({ claimed: true });
      await store.complete('acct', key, response, at(DAY));
      await store.release('acct', key);
      expect((await claim(key)).claimed).toBe(false);
    });

    it('takes over a running key older than the stale bound', async () => {
      const key = fresh();
      await claim(key);
      expect(await claim(key, 'fp', at(60_001))).toEqual({ claimed: true });
    });

    it('keeps scopes apart', async () => {
      const key = fresh();
      expect(await claim(key, 'fp', T0, 'a')).toEqual({ claimed: true });
      expect(await claim(key, 'fp', T0, 'b')).toEqual({ claimed: true });
    });

    it('lets exactly one of 20 concurrent claims win', async () => {
      const key = fresh();
      const claims = await Promise.all(Array.from({ length: 20 }, () => claim(key)));
      expect(claims.filter((outcome) => outcome.claimed)).toHaveLength(1);
    });

    it('purges expired records', async () => {
      const key = fresh();
      await claim(key);
      await store.complete('acct', key, response, at(1000));
      expect(await store.purgeExpired(at(2000))).toBeGreaterThanOrEqual(1);
      expect(await claim(key, 'fp', at(500))).toEqual({ claimed: true });
    });
  });
}
