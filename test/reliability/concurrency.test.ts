import { IdentityStore, setOperatorFlag } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '../support/accounts.js';
import { type ApiCluster, startCluster } from '../support/api-cluster.js';
import { eventually } from '../support/api-harness.js';
import { type RawAnswer, send } from '../support/http.js';
import { CONCURRENCY, codeOf, type Figure, TARGETS, tally, timed } from './concurrency-targets.js';

const figures: Figure[] = [];

afterAll(() => {
  if (figures.length > 0) console.table(figures);
});

/**
 * Concurrency (issue 10; spec 4.1.3, 4.1.5, 4.4, 4.10, 6.3, 7): fifty requests at once through real HTTP,
 * split between the API servers sharing the database: If-Match lets exactly one writer of a version through
 * and versions stay gapless with one publication each; one Idempotency-Key makes one creation; one linked
 * address and one operator block pattern have one winner.
 */
for (const target of TARGETS) {
  describe.skipIf(target.skip)(`concurrent writes: ${target.name}`, () => {
    let cluster: ApiCluster;
    let owner: TestAccount;
    let operator: Record<string, string>;
    /** The server of the i-th request: requests alternate between the servers. */
    const serverOf = (index: number) => cluster.urls[index % cluster.urls.length] as string;

    beforeAll(async () => {
      // Behind a trusted loopback proxy, X-Forwarded-For plays the network a linked address is proven from.
      cluster = await startCluster(target.storage, target.servers, { SVC_TRUST_PROXY: 'loopback' });
      owner = await createAccount(cluster.harness);
      const identities = await cluster.harness.container.getAsync<IdentityStore>(IdentityStore);
      await setOperatorFlag(identities, owner.email, true);
      const created = await send(`${cluster.harness.url}/v1/tokens`, {
        method: 'POST',
        headers: { cookie: `svc_session=${owner.cookie}` },
        body: { name: 'operator', scopes: ['admin'] },
      });
      operator = { authorization: `Bearer ${(created.json as { secret: string }).secret}` };
    }, 120_000);
    afterAll(async () => {
      await cluster?.close();
    });

    const createProfile = async (): Promise<string> => {
      const answer = await send(`${serverOf(0)}/v1/profiles`, {
        method: 'POST',
        headers: owner.auth,
        body: {},
      });
      expect(answer.status, answer.text).toBe(201);
      return (answer.json as { id: string }).id;
    };
    const patch = (index: number, id: string, etag: string) =>
      send(`${serverOf(index)}/v1/profiles/${id}`, {
        method: 'PATCH',
        headers: { ...owner.auth, 'if-match': etag },
        body: { name: `writer ${index}` },
      });
    /** Versions of the documents published for `id`, once `expected` of them arrived (or the wait ran out). */
    const publishedVersions = async (id: string, expected: number): Promise<number[]> => {
      const versions = () =>
        cluster.published
          .filter((delivery) => delivery.subject === `profiles.${id}`)
          .map((delivery) => (delivery.payload as { version: number }).version);
      await eventually(
        async () => versions().length,
        (count) => count >= expected,
        15_000,
      );
      // Late duplicates would arrive right behind the last expected document.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return versions().sort((a, b) => a - b);
    };

    it('lets exactly one of 50 PATCHes with the same If-Match through; 49 are 412 version_mismatch', async () => {
      const id = await createProfile();
      const { value: answers, ms } = await timed(() =>
        Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => patch(index, id, '"1"'))),
      );
      expect(tally(answers)).toEqual({ '200': 1, '412 version_mismatch': CONCURRENCY - 1 });
      const current = await send(`${serverOf(1)}/v1/profiles/${id}`, { headers: owner.auth });
      expect(current.headers.etag).toBe('"2"');
      const winner = answers.find((answer) => answer.status === 200)?.json as { name?: string } | undefined;
      expect(winner?.name).toMatch(/^writer \d+$/);
      expect((current.json as { name: string }).name).toBe(winner?.name);
      expect(await publishedVersions(id, 2)).toEqual([1, 2]);
      figures.push({
        target: target.name,
        scenario: 'PATCH, one If-Match',
        succeeded: 1,
        refused: `${CONCURRENCY - 1} × 412`,
        requests: CONCURRENCY,
        ms,
      });
    });

    it('lets all 50 succeed when each retries a 412 after a fresh GET: versions 2..51, one publication each', async () => {
      const id = await createProfile();
      let mismatches = 0;
      let requests = 0;
      const writer = async (index: number): Promise<RawAnswer> => {
        let attempts = 0;
        for (;;) {
          const current = await send(`${serverOf(index + requests)}/v1/profiles/${id}`, {
            headers: owner.auth,
          });
          requests += 2;
          const answer = await patch(index + requests, id, current.headers.etag ?? '');
          if (answer.status !== 412) return answer;
          expect(codeOf(answer)).toBe('version_mismatch');
          mismatches += 1;
          attempts += 1;
          // A jittered pause growing with each refusal, as a well-behaved client retries: it spreads the
          // writers out instead of having all of them collide on every version.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * attempts)));
        }
      };
      const { value: answers, ms } = await timed(() =>
        Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => writer(index))),
      );
      expect(tally(answers)).toEqual({ '200': CONCURRENCY });
      const versions = answers
        .map((answer) => (answer.json as { version: number }).version)
        .sort((a, b) => a - b);
      expect(versions).toEqual(Array.from({ length: CONCURRENCY }, (_, index) => index + 2));
      const current = await send(`${serverOf(0)}/v1/profiles/${id}`, { headers: owner.auth });
      expect(current.headers.etag).toBe(`"${CONCURRENCY + 1}"`);
      expect(await publishedVersions(id, CONCURRENCY + 1)).toEqual(
        Array.from({ length: CONCURRENCY + 1 }, (_, index) => index + 1),
      );
      figures.push({
        target: target.name,
        scenario: 'PATCH, retry on 412',
        succeeded: CONCURRENCY,
        refused: `${mismatches} × 412`,
        requests,
        ms,
      });
    }, 180_000);

    it('makes one profile of 50 concurrent POSTs with one Idempotency-Key; the rest replay it or are 409 idempotency_in_progress', async () => {
      const count = async () =>
        (
          (await send(`${serverOf(0)}/v1/profiles?limit=200`, { headers: owner.auth })).json as {
            profiles: unknown[];
          }
        ).profiles.length;
      const before = await count();
      const key = `concurrent-${target.storage}-${target.servers}-${Date.now()}`;
      const post = (index: number) =>
        send(`${serverOf(index)}/v1/profiles`, {
          method: 'POST',
          headers: { ...owner.auth, 'idempotency-key': key },
          body: { name: 'once' },
        });
      const { value: answers, ms } = await timed(() =>
        Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => post(index))),
      );
      const counts = tally(answers);
      expect(
        Object.keys(counts).every((key) => key === '201' || key === '409 idempotency_in_progress'),
        JSON.stringify(counts),
      ).toBe(true);
      const created = answers.filter((answer) => answer.status === 201);
      expect(created.length).toBeGreaterThan(0);
      expect(new Set(created.map((answer) => answer.text)).size).toBe(1);
      for (const waiting of answers.filter((answer) => answer.status === 409)) {
        expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0);
      }
      const replay = await post(1);
      expect(replay.status).toBe(201);
      expect(replay.text).toBe(created[0]?.text);
      expect(await count()).toBe(before + 1);
      figures.push({
        target: target.name,
        scenario: 'POST, one Idempotency-Key',
        succeeded: created.length,
        refused: `${counts['409 idempotency_in_progress'] ?? 0} × 409 in progress`,
        requests: CONCURRENCY,
        ms,
      });
    });

    it('links one address once of 50 concurrent POSTs over five profiles; the rest are 409 ip_conflict', async () => {
      const profiles = await Promise.all(Array.from({ length: 5 }, () => createProfile()));
      const ip = `198.51.100.${target.servers * 10 + (target.storage === 'pglite' ? 1 : 2)}`;
      const { value: answers, ms } = await timed(() =>
        Promise.all(
          Array.from({ length: CONCURRENCY }, (_, index) =>
            send(`${serverOf(index)}/v1/profiles/${profiles[index % profiles.length]}/linked-ips`, {
              method: 'POST',
              // Sent from the address itself: every claim is proven, so the address's one holder is decided.
              headers: { ...owner.auth, 'x-forwarded-for': ip },
              body: { ip },
            }),
          ),
        ),
      );
      expect(tally(answers)).toEqual({ '201': 1, '409 ip_conflict': CONCURRENCY - 1 });
      const holders = await Promise.all(
        profiles.map(async (id) => {
          const list = await send(`${serverOf(0)}/v1/profiles/${id}/linked-ips`, { headers: owner.auth });
          return (list.json as { linked_ips: Array<{ ip: string }> }).linked_ips.map((entry) => entry.ip);
        }),
      );
      expect(holders.flat()).toEqual([ip]);
      figures.push({
        target: target.name,
        scenario: 'POST linked IP, one address',
        succeeded: 1,
        refused: `${CONCURRENCY - 1} × 409 ip_conflict`,
        requests: CONCURRENCY,
        ms,
      });
    });

    it('creates one operator block of 50 concurrent POSTs of one pattern; the rest are 409 block_exists', async () => {
      const pattern = `race-${target.storage}-${target.servers}-${Date.now()}.example`;
      const { value: answers, ms } = await timed(() =>
        Promise.all(
          Array.from({ length: CONCURRENCY }, (_, index) =>
            send(`${serverOf(index)}/v1/admin/operator-blocks`, {
              method: 'POST',
              headers: operator,
              body: { pattern, reason_code: 'abuse' },
            }),
          ),
        ),
      );
      expect(tally(answers)).toEqual({ '201': 1, '409 block_exists': CONCURRENCY - 1 });
      const list = await send(`${serverOf(1)}/v1/admin/operator-blocks?limit=200`, { headers: operator });
      const live = (
        list.json as { blocks: Array<{ pattern: string; removed_at: string | null }> }
      ).blocks.filter((block) => block.pattern === pattern && block.removed_at === null);
      expect(live).toHaveLength(1);
      figures.push({
        target: target.name,
        scenario: 'POST operator block, one pattern',
        succeeded: 1,
        refused: `${CONCURRENCY - 1} × 409 block_exists`,
        requests: CONCURRENCY,
        ms,
      });
    });
  });
}
