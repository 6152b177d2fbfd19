import type { ProfileRecord } from '../profiles/profile.records.js';
import type { Clock } from '../shared/clock.ports.js';
import { notFound } from '../shared/domain-error.js';
import type { ScopedUnitOfWork } from '../shared/transaction.ports.js';
import type { ProfileSuspensionRecord, ProfileSuspensionScope } from './operator.ports.js';
import type { OperatorActor } from './operator-actor.js';
import type { ProfileSuspension, ProfileSuspensionPatch } from './profile-suspension.schemas.js';

/** What profile suspension is built from. */
export interface ProfileSuspensionDependencies {
  uow: ScopedUnitOfWork<ProfileSuspensionScope>;
  clock: Clock;
  /** Publishes a profile's full document (with its contributed parts) inside the transaction. */
  publishProfile: (tx: ProfileSuspensionScope, profile: ProfileRecord) => Promise<void>;
}

function viewOf(profile: ProfileRecord, suspension: ProfileSuspensionRecord | null): ProfileSuspension {
  const current = profile.suspended ? suspension : null;
  return {
    profile_id: profile.id,
    org_id: profile.orgId,
    name: profile.name,
    version: profile.version,
    suspended: profile.suspended,
    reason: current?.reason ?? null,
    suspended_by: current?.suspendedBy ?? null,
    suspended_at: current?.suspendedAt.toISOString() ?? null,
  };
}

/**
 * Profile suspension by operators (spec 3): any organisation's profile. Suspending or reinstating is a
 * versioned write published to the edge (the document then says to resolve without filtering or logging,
 * edge-document.ts), audited in the operator's organisation. The reason stays with operators: the owner's
 * profile only says `suspended`.
 */
export class ProfileSuspensionService {
  constructor(private readonly deps: ProfileSuspensionDependencies) {}

  async get(profileId: string): Promise<ProfileSuspension> {
    return this.deps.uow.run(async (tx) => {
      const profile = await this.find(tx, profileId, false);
      return viewOf(profile, await tx.operator.findSuspension(profileId));
    });
  }

  async patch(
    profileId: string,
    patch: ProfileSuspensionPatch,
    actor: OperatorActor,
  ): Promise<ProfileSuspension> {
    const now = this.deps.clock.now();
    return this.deps.uow.run(async (tx) => {
      const current = await this.find(tx, profileId, true);
      const previous = await tx.operator.findSuspension(profileId);
      const reason = patch.reason ?? '';
      if (current.suspended === patch.suspended && (!patch.suspended || previous?.reason === reason)) {
        return viewOf(current, previous);
      }
      const stateChanges = current.suspended !== patch.suspended;
      const next: ProfileRecord = stateChanges
        ? { ...current, suspended: patch.suspended, version: current.version + 1, updatedAt: now }
        : current;
      const suspension: ProfileSuspensionRecord | null = patch.suspended
        ? {
            profileId,
            reason,
            suspendedBy: actor.actor,
            suspendedAt: stateChanges ? now : (previous?.suspendedAt ?? now),
          }
        : null;
      await tx.operator.setSuspension(profileId, suspension);
      if (stateChanges) {
        await tx.profiles.save(next);
        await this.deps.publishProfile(tx, next);
      }
      await tx.audit.record({
        ...actor,
        action: patch.suspended ? 'admin.profile_suspended' : 'admin.profile_reinstated',
        target: `profiles/${profileId}`,
        details: {
          profile_org_id: current.orgId,
          version: next.version,
          ...(patch.reason === undefined ? {} : { reason }),
        },
        at: now,
      });
      return viewOf(next, suspension);
    });
  }

  private async find(
    tx: ProfileSuspensionScope,
    profileId: string,
    forUpdate: boolean,
  ): Promise<ProfileRecord> {
    const orgId = await tx.operator.profileOrg(profileId);
    const profile = orgId === null ? null : await tx.profiles.find(orgId, profileId, { forUpdate });
    if (profile === null) throw notFound('profile');
    return profile;
  }
}
