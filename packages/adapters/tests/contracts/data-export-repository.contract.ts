import { randomUUID } from 'node:crypto';
import type { DataExportRecord, UnitOfWork } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** What the contract runs against. */
export interface DataExportEngine {
  uow: UnitOfWork;
  dispose(): Promise<void>;
}

const T0 = Date.UTC(2026, 10, 23, 12);
const at = (offsetMs = 0) => new Date(T0 + offsetMs);
const MINUTE = 60_000;

/**
 * The behaviour every DataExportRepository must have: one pending export per account, reads bound to the
 * account, claims that one caller wins even when they race (several API servers) and that a lapsed lease
 * frees, archives readable only while ready and unexpired, removed at expiry and with the account. Every test
 * leaves no claimable export behind, so that claims in the next one see only its own.
 */
export function runDataExportRepositoryContract(
  name: string,
  make: () => Promise<DataExportEngine>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`DataExportRepository contract: ${name}`, () => {
    let engine: DataExportEngine;
    beforeAll(async () => {
      engine = await make();
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
      attempts: 0,
    });

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

    it('serves the archive only while ready and unexpired, removes it at expiry, lists newest first', async () => {
      const owner = await signUp();
      const older = pending(owner);
      await engine.uow.run((tx) => tx.exports.create(older));
      expect(await engine.uow.run((tx) => tx.exports.archive(owner.id, older.id, at()))).toBeNull();
      await engine.uow.run((tx) => tx.exports.claimPending(at(), at(MINUTE)));
      const archive = '{"account":"é"}';
      expect(await engine.uow.run((tx) => tx.exports.complete(older.id, archive, at(1), at(MINUTE)))).toBe(
        true,
      );
      expect(await engine.uow.run((tx) => tx.exports.complete(older.id, archive, at(2), at(MINUTE)))).toBe(
        false,
      );
      expect(await engine.uow.run((tx) => tx.exports.find(owner.id, older.id))).toMatchObject({
        status: 'ready',
        sizeBytes: Buffer.byteLength(archive),
        expiresAt: at(MINUTE),
      });
      expect(await engine.uow.run((tx) => tx.exports.archive(owner.id, older.id, at(2)))).toBe(archive);
      expect(await engine.uow.run((tx) => tx.exports.archive(owner.id, older.id, at(MINUTE)))).toBeNull();

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
      expect(await engine.uow.run((tx) => tx.exports.archive(owner.id, older.id, at()))).toBeNull();
      expect(await engine.uow.run((tx) => tx.exports.eraseAll(owner.id))).toBe(2);
      expect(await engine.uow.run((tx) => tx.exports.list(owner.id, { limit: 10, after: null }))).toEqual([]);
    });
  });
}
