import type { OutboxMessage } from '../outbox/outbox.ports.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { ProfileCommitter, ProfileSnapshot, ProfileWriteScope } from './profile.ports.js';
import type { ProfileRecord } from './profile.records.js';

/**
 * {@link ProfileCommitter} on any unit of work: the version check, the save and the publication in one
 * transaction. Stores that can do it in one statement have their own (PostgresProfileCommitter).
 */
export class UnitOfWorkProfileCommitter implements ProfileCommitter {
  constructor(private readonly uow: ScopedUnitOfWork<ProfileWriteScope>) {}

  current(orgId: string, id: string): Promise<ProfileSnapshot | null> {
    return this.uow.run(async (tx) => {
      const record = await tx.profiles.find(orgId, id);
      if (record === null) return null;
      return {
        record,
        linkedIps: await tx.linkedIps.addresses(id),
        devices: await tx.devices.documentPolicies(id),
      };
    });
  }

  commitIfUnchanged(next: ProfileRecord, publication: OutboxMessage): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const stored = await tx.profiles.find(next.orgId, next.id, { forUpdate: true });
      if (stored?.version !== next.version - 1) return false;
      await tx.profiles.save({ ...next, suspended: stored.suspended });
      await tx.outbox.enqueue(publication);
      return true;
    });
  }
}
