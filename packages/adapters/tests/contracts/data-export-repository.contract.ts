import { randomUUID } from 'node:crypto';
import type { DataExportRecord } from '@svc/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ContractStorage, StoreUnderTest } from '../support/every-storage.js';

const T0 = Date.UTC(2026, 10, 23, 12);
const at = (offsetMs = 0) => new Date(T0 + offsetMs);
const MINUTE = 60_000;

/**
 * The behaviour every DataExportRepository must have: one pending export per account, reads bound to the
 * account, claims that one caller wins even when they race (several API servers) and that a lapsed lease
 * frees, archives stored in chunks that only the current claim may write (a claim taken again replaces the
 * earlier attempt's), readable only while ready and unexpired, removed at expiry, failure and with the
 * account. Every test leaves no claimable export behind, so that claims in the next one see only its own.
 */
export function runDataExportRepositoryContract(storage: ContractStorage): void {
  let engine: StoreUnderTest;
  beforeAll(async () => {
    engine = await storage.open();
  }, 60_000);
  afterAll(async () => engine?.dispose());

  const signUp = async () => {
    const account = { id: randomUUID(), orgId: randomUUID() };
    await engine.uow.run((tx) =>
      tx.identity.accounts.createWithOrganisation(
        { id: account.orgId, name: 'org', createdAt: at() },
        {
          ...account,
          role: 'owner',
          email: `export-${account.id}@example.test`,
          emailVerifiedAt: at(),
          passwordHash: null,
          plan: 'free',
          mfa: false,
          isAdmin: false,
          createdAt: at(),
          deletionRequestedAt: null,
          deletionDueAt: null,
        },
      ),
    );
    return account;
  };
  const pending = (account: { id: string; orgId: string }, createdAt = at()): DataExportRecord => ({
    id: randomUUID(),
    accountId: account.id,
    orgId: account.orgId,
    status: 'pending',
    createdAt,
    completedAt: null,
    expiresAt: null,
    sizeBytes: null,
    sha256: null,
    chunkCount: null,
    attempts: 0,
  });
  /** A chunk as hex, so that Buffer (pg) and Uint8Array (memory, PGlite) compare alike. */
  const hex = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString('hex'));
  const bytesOf = (text: string) => new TextEncoder().encode(text);

  it('keeps one pending export per account, and binds reads to the account', async () => {
    const [owner, stranger] = [await signUp(), await signUp()];
    const first = pending(owner);
    expect(await engine.uow.run((tx) => tx.exports.create(first))).toBe(true);
    expect(await engine.uow.run((tx) => tx.exports.create(pending(owner, at(1))))).toBe(false);
    expect(await engine.uow.run((tx) => tx.exports.create(pending(stranger)))).toBe(true);
    expect(await engine.uow.run((tx) => tx.exports.find(owner.id, first.id))).toMatchObject({
      id: first.id,
      status: 'pending',
    });
    expect(await engine.uow.run((tx) => tx.exports.find(stranger.id, first.id))).toBeNull();
    await engine.uow.run(async (tx) => {
      await tx.exports.eraseAll(owner.id);
      await tx.exports.eraseAll(stranger.id);
    });
  });

  it('lets one of two racing claims win, and frees the export once the lease lapses', async () => {
    const owner = await signUp();
    const record = pending(owner);
    await engine.uow.run((tx) => tx.exports.create(record));
    const claims = await Promise.all([
      engine.uow.run((tx) => tx.exports.claimPending(at(), at(10 * MINUTE))),
      engine.uow.run((tx) => tx.exports.claimPending(at(), at(10 * MINUTE))),
    ]);
    expect(claims.filter((claim) => claim !== null).map((claim) => claim?.id)).toEqual([record.id]);
    expect(await engine.uow.run((tx) => tx.exports.claimPending(at(MINUTE), at(11 * MINUTE)))).toBeNull();
    const again = await engine.uow.run((tx) => tx.exports.claimPending(at(10 * MINUTE), at(20 * MINUTE)));
    expect(again).toMatchObject({ id: record.id, attempts: 2 });
    await engine.uow.run((tx) => tx.exports.fail(record.id, at(11 * MINUTE)));
    expect(await engine.uow.run((tx) => tx.exports.find(owner.id, record.id))).toMatchObject({
      status: 'failed',
      completedAt: at(11 * MINUTE),
    });
    expect(
      await engine.uow.run((tx) => tx.exports.claimPending(at(60 * MINUTE), at(70 * MINUTE))),
    ).toBeNull();
  });

  it('serves the chunks only while ready and unexpired, removes them at expiry, lists newest first', async () => {
    const owner = await signUp();
    const older = pending(owner);
    await engine.uow.run((tx) => tx.exports.create(older));
    expect(await engine.uow.run((tx) => tx.exports.chunk(owner.id, older.id, 0, at()))).toBeNull();
    const claimed = await engine.uow.run((tx) => tx.exports.claimPending(at(), at(MINUTE)));
    const claim = { id: older.id, attempt: claimed?.attempts ?? 0 };
    // Bytes that are not text, and a line cut across two chunks: chunks are byte ranges.
    const first = new Uint8Array([0, 255, 10, 0xc3]);
    const last = new Uint8Array([0xa9, 10]);
    expect(await engine.uow.run((tx) => tx.exports.writeChunk(claim, 0, first, at(MINUTE)))).toBe(true);
    const summary = { chunkCount: 2, sizeBytes: 6, sha256: 'ab'.repeat(32) };
    expect(
      await engine.uow.run(
        async (tx) =>
          (await tx.exports.writeChunk(claim, 1, last, at(MINUTE))) &&
          (await tx.exports.complete(claim, summary, at(1), at(MINUTE))),
      ),
    ).toBe(true);
    expect(await engine.uow.run((tx) => tx.exports.complete(claim, summary, at(2), at(MINUTE)))).toBe(false);
    expect(await engine.uow.run((tx) => tx.exports.writeChunk(claim, 2, last, at(MINUTE)))).toBe(false);
    expect(await engine.uow.run((tx) => tx.exports.find(owner.id, older.id))).toMatchObject({
      status: 'ready',
      sizeBytes: 6,
      sha256: summary.sha256,
      chunkCount: 2,
      expiresAt: at(MINUTE),
    });
    expect(hex(await engine.uow.run((tx) => tx.exports.chunk(owner.id, older.id, 0, at(2))))).toBe(
      hex(first),
    );
    expect(hex(await engine.uow.run((tx) => tx.exports.chunk(owner.id, older.id, 1, at(2))))).toBe(hex(last));
    expect(await engine.uow.run((tx) => tx.exports.chunk(owner.id, older.id, 2, at(2)))).toBeNull();
    expect(await engine.uow.run((tx) => tx.exports.chunk(randomUUID(), older.id, 0, at(2)))).toBeNull();
    expect(await engine.uow.run((tx) => tx.exports.chunk(owner.id, older.id, 0, at(MINUTE)))).toBeNull();

    const newer = pending(owner, at(5));
    expect(await engine.uow.run((tx) => tx.exports.create(newer))).toBe(true);
    const listed = await engine.uow.run((tx) => tx.exports.list(owner.id, { limit: 10, after: null }));
    expect(listed.map((row) => row.id)).toEqual([newer.id, older.id]);
    const rest = await engine.uow.run((tx) =>
      tx.exports.list(owner.id, { limit: 10, after: { createdAt: newer.createdAt, id: newer.id } }),
    );
    expect(rest.map((row) => row.id)).toEqual([older.id]);

    expect(await engine.uow.run((tx) => tx.exports.expireDue(at(MINUTE)))).toBeGreaterThanOrEqual(1);
    expect(await engine.uow.run((tx) => tx.exports.find(owner.id, older.id))).toMatchObject({
      status: 'expired',
    });
    expect(await engine.uow.run((tx) => tx.exports.chunk(owner.id, older.id, 0, at()))).toBeNull();
    expect(await engine.uow.run((tx) => tx.exports.eraseAll(owner.id))).toBe(2);
    expect(await engine.uow.run((tx) => tx.exports.list(owner.id, { limit: 10, after: null }))).toEqual([]);
  });

  it('replaces the chunks of an attempt whose lease lapsed, and shuts that attempt out', async () => {
    const owner = await signUp();
    const record = pending(owner);
    await engine.uow.run((tx) => tx.exports.create(record));
    const first = await engine.uow.run((tx) => tx.exports.claimPending(at(), at(10 * MINUTE)));
    const stale = { id: record.id, attempt: first?.attempts ?? 0 };
    for (const seq of [0, 1, 2]) {
      expect(
        await engine.uow.run((tx) =>
          tx.exports.writeChunk(stale, seq, bytesOf(`stale ${seq}\n`), at(11 * MINUTE)),
        ),
      ).toBe(true);
    }
    // Each chunk written extends the lease: the export is not free at the first lease's end.
    expect(
      await engine.uow.run((tx) => tx.exports.claimPending(at(10 * MINUTE), at(20 * MINUTE))),
    ).toBeNull();
    const second = await engine.uow.run((tx) => tx.exports.claimPending(at(11 * MINUTE), at(21 * MINUTE)));
    expect(second).toMatchObject({ id: record.id, attempts: stale.attempt + 1 });
    const current = { id: record.id, attempt: second?.attempts ?? 0 };
    expect(
      await engine.uow.run((tx) => tx.exports.writeChunk(stale, 3, bytesOf('late\n'), at(30 * MINUTE))),
    ).toBe(false);
    const fresh = bytesOf('fresh\n');
    const summary = { chunkCount: 1, sizeBytes: fresh.length, sha256: 'cd'.repeat(32) };
    expect(
      await engine.uow.run((tx) => tx.exports.complete(stale, summary, at(12 * MINUTE), at(60 * MINUTE))),
    ).toBe(false);
    expect(
      await engine.uow.run(
        async (tx) =>
          (await tx.exports.writeChunk(current, 0, fresh, at(21 * MINUTE))) &&
          (await tx.exports.complete(current, summary, at(12 * MINUTE), at(60 * MINUTE))),
      ),
    ).toBe(true);
    const read = (seq: number) =>
      engine.uow.run((tx) => tx.exports.chunk(owner.id, record.id, seq, at(13 * MINUTE)));
    expect(hex(await read(0))).toBe(hex(fresh));
    expect([await read(1), await read(2), await read(3)]).toEqual([null, null, null]);
    expect(await engine.uow.run((tx) => tx.exports.eraseAll(owner.id))).toBe(1);
    expect(await read(0)).toBeNull();
  });

  it('removes the chunks of an export marked failed', async () => {
    const owner = await signUp();
    const record = pending(owner);
    await engine.uow.run((tx) => tx.exports.create(record));
    const claimed = await engine.uow.run((tx) => tx.exports.claimPending(at(), at(MINUTE)));
    const claim = { id: record.id, attempt: claimed?.attempts ?? 0 };
    expect(await engine.uow.run((tx) => tx.exports.writeChunk(claim, 0, bytesOf('part\n'), at(MINUTE)))).toBe(
      true,
    );
    await engine.uow.run((tx) => tx.exports.fail(record.id, at(2)));
    expect(await engine.uow.run((tx) => tx.exports.find(owner.id, record.id))).toMatchObject({
      status: 'failed',
      chunkCount: null,
      sha256: null,
    });
    expect(await engine.uow.run((tx) => tx.exports.writeChunk(claim, 1, bytesOf('more\n'), at(MINUTE)))).toBe(
      false,
    );
    expect(await engine.uow.run((tx) => tx.exports.chunk(owner.id, record.id, 0, at(2)))).toBeNull();
  });
}
