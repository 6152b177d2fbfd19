import { randomUUID } from 'node:crypto';
import type { AuditEntry, AuditLogStore, UnitOfWork } from '@svc/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** One implementation of the audit log under test: writes go through a unit of work, reads through the store. */
export interface AuditLogUnderTest {
  uow: UnitOfWork;
  store: AuditLogStore;
  /**
   * Tries to change or remove a committed entry of the organisation behind the writer's back; resolves to
   * whether the store allowed it. Memory has no way to do so and answers false.
   */
  tamper(orgId: string): Promise<boolean>;
  dispose(): Promise<void>;
}

const at = (offsetMs = 0) => new Date(Date.UTC(2026, 0, 5, 12) + offsetMs);

function entry(orgId: string, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    orgId,
    actor: 'account:7a1c2f7e-0000-4000-8000-000000000001',
    action: 'device.update',
    target: 'profiles/abc123/devices/tv',
    details: { profile_id: 'abc123', device_id: 'tv', changed: { kind: 'tv', display_name: null } },
    at: at(),
    clientIp: '203.0.113.7',
    requestId: 'req-1',
    ...overrides,
  };
}

/**
 * What every audit log must guarantee, whichever engine: an entry exists exactly when the transaction that
 * wrote it commits, keeps every field as written, is read per organisation newest first, and is never changed.
 */
export function runAuditLogContract(
  name: string,
  open: () => Promise<AuditLogUnderTest>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`audit log contract: ${name}`, () => {
    let sut: AuditLogUnderTest;
    beforeAll(async () => {
      sut = await open();
    }, 60_000);
    afterAll(async () => sut?.dispose());

    it('keeps a committed entry with every field, and null for an absent client address or request id', async () => {
      const orgId = randomUUID();
      await sut.uow.run(async (tx) => {
        await tx.audit.record(entry(orgId));
        await tx.audit.record(
          entry(orgId, {
            action: 'device.forget',
            at: at(1_000),
            actor: 'token:3b9e',
            clientIp: undefined,
            requestId: undefined,
          }),
        );
      });
      const entries = await sut.store.recent(orgId, 10);
      expect(entries.map(({ id: _id, ...rest }) => rest)).toEqual([
        {
          orgId,
          actor: 'token:3b9e',
          action: 'device.forget',
          target: 'profiles/abc123/devices/tv',
          details: { profile_id: 'abc123', device_id: 'tv', changed: { kind: 'tv', display_name: null } },
          at: at(1_000),
          clientIp: null,
          requestId: null,
        },
        {
          orgId,
          actor: 'account:7a1c2f7e-0000-4000-8000-000000000001',
          action: 'device.update',
          target: 'profiles/abc123/devices/tv',
          details: { profile_id: 'abc123', device_id: 'tv', changed: { kind: 'tv', display_name: null } },
          at: at(),
          clientIp: '203.0.113.7',
          requestId: 'req-1',
        },
      ]);
      expect(entries[0]?.id).not.toBe(entries[1]?.id);
    });

    it('keeps nothing of a transaction that fails', async () => {
      const orgId = randomUUID();
      await expect(
        sut.uow.run(async (tx) => {
          await tx.audit.record(entry(orgId));
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await sut.store.recent(orgId, 10)).toEqual([]);
    });

    it('reads one organisation’s entries, newest first, later appends first among equal times, up to the limit', async () => {
      const orgId = randomUUID();
      const otherOrg = randomUUID();
      await sut.uow.run(async (tx) => {
        await tx.audit.record(entry(orgId, { requestId: 'first' }));
        await tx.audit.record(entry(otherOrg, { requestId: 'elsewhere' }));
        await tx.audit.record(entry(orgId, { requestId: 'second' }));
        await tx.audit.record(entry(orgId, { requestId: 'older', at: at(-60_000) }));
      });
      const entries = await sut.store.recent(orgId, 10);
      expect(entries.map((found) => found.requestId)).toEqual(['second', 'first', 'older']);
      expect((await sut.store.recent(orgId, 2)).map((found) => found.requestId)).toEqual(['second', 'first']);
      expect((await sut.store.recent(otherOrg, 10)).map((found) => found.requestId)).toEqual(['elsewhere']);
    });

    it('never changes a committed entry', async () => {
      const orgId = randomUUID();
      await sut.uow.run(async (tx) => tx.audit.record(entry(orgId)));
      expect(await sut.tamper(orgId)).toBe(false);
      expect(await sut.store.recent(orgId, 10)).toEqual([
        expect.objectContaining({ requestId: 'req-1', action: 'device.update' }),
      ]);
    });
  });
}
